import type { RunView } from '../view/run-view';
import { formatCount, formatUsd, html, type SafeHtml } from './html';
import { attemptTitle, outcomeOf } from './render-attempt';

const WIDTH = 640;
const HEIGHT = 140;
const TOP = 18;
const BOTTOM = 22;

/**
 * The run's model calls as bars (inline SVG, no script): each call's cost, coloured by what was
 * decided after it, then the sub-agents' calls as one bar, with the running total as a line (the
 * run's total, as its ledger counts it). Without prices, tokens stand in for dollars.
 */
export function renderCostChart(run: RunView): SafeHtml {
  const calls = run.attempts;
  const { summary } = run;
  if (calls.length === 0) return html``;
  const priced = summary.costUsd !== undefined;
  const values = calls.map(({ response }) => (!response ? 0 : priced ? (response.costUsd ?? 0) : response.inputTokens + response.outputTokens));
  // The sub-agents' calls, as one last bar: the ledger counts them in the run's cost.
  const own = values.reduce((sum, value) => sum + value, 0);
  if (summary.subAgentCalls > 0) values.push(Math.max(0, (priced ? (summary.costUsd ?? 0) : summary.inputTokens + summary.outputTokens) - own));
  const total = values.reduce((sum, value) => sum + value, 0);
  const plot = HEIGHT - TOP - BOTTOM;
  const slot = WIDTH / values.length;
  const barWidth = Math.max(2, Math.min(48, slot * 0.6));
  const format = (value: number) => (priced ? formatUsd(value) : `${formatCount(value)} tokens`);
  const max = Math.max(...values, Number.MIN_VALUE);
  let running = 0;
  const points: string[] = [];
  const bars = values.map((value, index) => {
    const call = calls[index];
    running += value;
    const height = (value / max) * plot * 0.9;
    const x = index * slot + (slot - barWidth) / 2;
    points.push(`${(index * slot + slot / 2).toFixed(1)},${(TOP + plot - (running / (total || 1)) * plot).toFixed(1)}`);
    const rect = html`<rect class="bar outcome-${call ? outcomeOf(call) : 'sub-agents'}" x="${x.toFixed(1)}" y="${(TOP + plot - height).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${Math.max(1, height).toFixed(1)}"><title>${call ? attemptTitle(call) : `sub-agents (${summary.subAgentCalls} call(s))`}: ${format(value)}</title></rect>`;
    return html`${call ? html`<a href="#attempt-${call.key}">${rect}</a>` : rect}
      <text class="tick" x="${(index * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 6}">${call ? index + 1 : 'sub'}</text>`;
  });
  return html`<figure class="cost-chart" data-part="cost-chart">
    <svg role="img" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" aria-label="${priced ? 'cost' : 'tokens'} of each model call">
      <line class="axis" x1="0" y1="${TOP + plot}" x2="${WIDTH}" y2="${TOP + plot}"></line>
      ${bars}
      <polyline class="running" points="${points.join(' ')}"></polyline>
      <text class="label" x="4" y="12">${priced ? 'dollars' : 'tokens'} per model call (bars) and running total (line): ${format(total)}</text>
    </svg>
    <figcaption>${summary.modelCalls} model call(s)${summary.subAgentCalls > 0 ? ` (${summary.subAgentCalls} by sub-agents)` : ''} · total <b data-part="run-cost">${format(total)}</b></figcaption>
  </figure>`;
}
