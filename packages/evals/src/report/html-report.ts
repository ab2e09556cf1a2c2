import type { Comparison } from '../compare/compare-reports';
import type { EvalReport, ItemReport } from '../evaluate/eval-report';
import { escapeHtml } from '@keel/core/internal';


const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const dollars = (value: number | null) => (value === null ? '—' : `$${value.toFixed(6)}`);
const byName = (counts: Readonly<Record<string, number>>) => Object.entries(counts).map(([name, times]) => `${escapeHtml(name)} ×${times}`).join(', ') || '—';
const cut = (text: string, limit = 300) => (text.length > limit ? `${text.slice(0, limit)}…` : text);
const json = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2330}h1{font-size:1.4rem}table{border-collapse:collapse;margin:1rem 0;width:100%}
th,td{border:1px solid #d5d9e0;padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:#f2f4f7}
.pass{color:#17692f;font-weight:600}.fail{color:#a3520d;font-weight:600}.error{color:#b3261e;font-weight:600}
.figures td:first-child{width:16rem;color:#4a5365}.regression{background:#fdecea}code{font-size:12px;white-space:pre-wrap;word-break:break-word}`;

function figures(report: EvalReport): string {
  const s = report.summary;
  const rows: [string, string][] = [
    ['Pass rate', `${percent(s.passRate)} (${s.passed} passed, ${s.failed} failed, ${s.errored} errors of ${s.items})`],
    ['First-pass validity', percent(s.firstPassValidity)],
    ['Re-asks per item', s.reAsksPerItem.toFixed(2)],
    ['Tool re-asks', String(s.toolReAsks)],
    ['Transient failures', String(s.transientFailures)],
    ['Repairs', byName(s.repairs)],
    ['Coercions', byName(s.coercions)],
    ['Patches / continuations', `${s.patches} / ${s.continuations}`],
    ['Loops stopped', String(s.loops)],
    ['Failures by kind', byName(s.failuresByKind)],
    ['Failed attempts by kind', byName(s.attemptFailuresByKind)],
    ['Model calls', String(s.calls)],
    ['Tokens', `${s.tokens.total} (input ${s.tokens.input}, output ${s.tokens.output}, cache read ${s.tokens.cacheRead}, cache write ${s.tokens.cacheWrite})`],
    ['Dollars', dollars(s.costUsd)],
    ['Dollars per valid output', `${dollars(s.dollarsPerValidOutput)} (${s.validOutputs} valid outputs)`],
    ...Object.entries(s.scores).map(([name, score]): [string, string] => [`Score: ${escapeHtml(name)}`, `mean ${score.mean.toFixed(3)}, ${percent(score.passRate)} pass`]),
  ];
  return `<table class="figures">${rows.map(([label, value]) => `<tr><td>${label}</td><td>${value}</td></tr>`).join('')}</table>`;
}

function itemRow(item: ItemReport): string {
  const scores = Object.entries(item.scores).map(([name, score]) => `${escapeHtml(name)}: ${score.score.toFixed(2)}${score.reason ? ` — ${escapeHtml(cut(score.reason))}` : ''}`).join('<br>');
  const answer = item.error ? `${escapeHtml(item.error.kind)}: ${escapeHtml(cut(item.error.message))}` : escapeHtml(cut(json(item.value)));
  const r = item.reliability;
  const how = [r.firstPassValid ? 'first pass' : `${r.reAsks} re-ask${r.reAsks === 1 ? '' : 's'}`, ...r.repairs.map(escapeHtml), ...r.coercions.map((kind) => `coerced ${escapeHtml(kind)}`), r.patches ? `${r.patches} patch` : '', r.continuations ? `${r.continuations} continuation` : '', r.loop ? 'loop stopped' : ''].filter(Boolean).join(', ');
  return `<tr><td>${escapeHtml(item.id)}</td><td class="${escapeHtml(item.outcome)}">${escapeHtml(item.outcome)}</td><td><code>${escapeHtml(cut(item.input))}</code></td><td><code>${answer}</code></td><td>${scores}</td><td>${how}</td><td>${item.calls}</td><td>${item.tokens.total}</td><td>${dollars(item.costUsd)}</td></tr>`;
}

function regressions(comparison: Comparison | undefined): string {
  if (!comparison) return '';
  if (comparison.ok) return '<p class="pass">No regression against the baseline.</p>';
  return `<h2>Regressions against the baseline</h2><table>${comparison.regressions.map((regression) => `<tr class="regression"><td>${escapeHtml(regression.message)}</td></tr>`).join('')}</table>`;
}

/**
 * The report as one self-contained HTML page (inline style, no script, nothing loaded from
 * elsewhere): the figures, the regressions against a baseline when compared, and a row per item.
 * Every text from the dataset or the model is escaped.
 */
export function htmlReport(report: EvalReport, comparison?: Comparison): string {
  const title = `Eval ${escapeHtml(report.name)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${STYLE}</style></head>
<body><h1>${title}</h1><p>Started ${escapeHtml(report.startedAt)}, ${(report.durationMs / 1000).toFixed(1)} s.</p>
${regressions(comparison)}${figures(report)}
<h2>Items</h2><table><thead><tr><th>Item</th><th>Outcome</th><th>Input</th><th>Answer</th><th>Scores</th><th>How</th><th>Calls</th><th>Tokens</th><th>Dollars</th></tr></thead>
<tbody>${report.items.map(itemRow).join('\n')}</tbody></table></body></html>
`;
}
