import type { AttemptView, RunSummary, RunView, SegmentView, StepView, ToolCallView, WaitingCallView } from '../view/run-view';
import { formatCount, formatParentLoop, formatTime, formatUsd, html, type SafeHtml } from './html';
import { renderAttempt } from './render-attempt';
import { renderCostChart } from './render-cost-chart';

/** Sub-agents deeper than this are linked, not drawn inside their parent. */
const MAX_DEPTH = 6;

/** Where links of the run page go: the page itself with other query parameters. */
export interface RunLinks {
  run(runId: string): string;
  compare(runId: string, first: string, second: string): string;
}

/** The line of totals under a run's name. */
export function renderTotals(summary: RunSummary): SafeHtml {
  const target = [summary.provider, summary.model].filter((part) => part !== '').join('/');
  const head = html`<span class="tag status-${summary.status.replace(/[^a-z]/g, '')}" data-part="status">${summary.status}</span>
    ${target === '' ? '' : `${target} · `}started ${formatTime(summary.startedAt)} UTC · ${summary.steps} step(s) ·`;
  return html`<p class="totals">${head}
    <span data-part="model-calls">${summary.modelCalls} model call(s)${summary.subAgentCalls > 0 ? ` (${summary.subAgentCalls} by sub-agents)` : ''}</span> · <span data-part="re-asks">${summary.reAsks} re-ask(s)</span> ·
    ${formatCount(summary.inputTokens)} in / ${formatCount(summary.outputTokens)} out tokens · <b>${summary.costUsd === undefined ? 'not priced' : formatUsd(summary.costUsd)}</b></p>`;
}

function renderTool(tool: ToolCallView, links: RunLinks, depth: number): SafeHtml {
  const status = tool.isError === undefined ? 'running' : tool.isError ? `failed (${tool.errorCode ?? 'error'})` : 'ran';
  return html`<li class="tool" data-tool-call-id="${tool.toolCallId}">
    <b>${tool.toolName ?? 'a tool (name not recorded)'}</b> <code>${tool.toolCallId}</code> · ${status}${tool.durationMs === undefined ? '' : ` in ${tool.durationMs.toFixed(1)} ms`}${tool.coercions === undefined ? '' : ` · ${tool.coercions} coercion(s)`}${tool.reAsks === undefined ? '' : ` · arguments re-asked ${tool.reAsks} time(s)`}
    ${tool.children.map((child) => renderSubAgent(child, links, depth + 1))}
  </li>`;
}

function renderStep(step: StepView, runId: string, links: RunLinks, depth: number): SafeHtml {
  const lanes = new Map<string, AttemptView>();
  return html`<section class="step" data-step="${step.step}">
    <h3>Step ${step.step}${step.end ? html` <span class="muted">· ${step.end.final ? 'final answer' : `${step.end.toolCalls} tool call(s)`}</span>` : ''}</h3>
    ${step.notes.length === 0 ? '' : html`<ul class="notes">${step.notes.map((line) => html`<li>${line}</li>`)}</ul>`}
    <div class="attempts">${step.attempts.map((attempt) => {
      const lane = attempt.toolCallId ?? '';
      const previous = lanes.get(lane) ?? (lane === '' ? undefined : lanes.get(''));
      lanes.set(lane, attempt);
      return renderAttempt(attempt, previous ? links.compare(runId, previous.key, attempt.key) : undefined);
    })}</div>
    ${step.tools.length === 0 ? '' : html`<ul class="tools">${step.tools.map((tool) => renderTool(tool, links, depth))}</ul>`}
  </section>`;
}

const calls = (list: readonly WaitingCallView[]) => html`${list.map((call, index) => html`${index > 0 ? ', ' : ''}${call.toolName} <code>${call.toolCallId}</code>`)}`;

function renderSuspended(suspended: NonNullable<SegmentView['suspended']>): SafeHtml {
  const { pending, unknown } = suspended;
  const waits = [
    pending.length > 0 ? html`${pending.length} call(s) wait for approval (${calls(pending)})` : undefined,
    unknown.length > 0 ? html`${unknown.length} call(s) whose outcome is unknown after the process running them stopped (${calls(unknown)}): settle them with <code>resume</code>` : undefined,
  ].filter((part) => part !== undefined);
  return html`<p class="banner suspended" data-part="suspended">Suspended (<code>${suspended.suspensionId}</code>): ${waits.length === 0 ? 'no call waits' : waits.map((part, index) => html`${index > 0 ? '; ' : ''}${part}`)}</p>`;
}

function renderResumed(resumed: NonNullable<SegmentView['resumed']>): SafeHtml {
  const settled = [resumed.settled > 0 ? `${resumed.settled} outcome(s) settled` : '', resumed.retried > 0 ? `${resumed.retried} call(s) run again` : ''].filter((part) => part !== '');
  return html`<p class="banner resumed" data-part="resumed">Resumed: ${resumed.approved} approved, ${resumed.rejected} rejected${settled.length > 0 ? `, ${settled.join(', ')}` : ''}</p>`;
}

function renderSegment(segment: SegmentView, runId: string, links: RunLinks, depth: number): SafeHtml {
  return html`<section class="segment">
    ${segment.resumed ? renderResumed(segment.resumed) : ''}
    ${segment.recovered ? html`<p class="banner recovered" data-part="recovered">Recovered: the run was continued from its journal at step ${segment.recovered.step}, after the process running it stopped</p>` : ''}
    ${segment.notes.length === 0 ? '' : html`<ul class="notes">${segment.notes.map((line) => html`<li>${line}</li>`)}</ul>`}
    ${segment.steps.map((step) => renderStep(step, runId, links, depth))}
    ${segment.suspended ? renderSuspended(segment.suspended) : ''}
    ${segment.end ? html`<p class="segment-end">Ended <b>${segment.end.status}</b>${segment.end.durationMs === undefined ? '' : ` after ${segment.end.durationMs.toFixed(1)} ms`}${segment.end.errorName === undefined ? '' : html` · ${segment.end.errorName}`}${segment.end.errorMessage === undefined ? '' : html`: ${segment.end.errorMessage}`}</p>` : html`<p class="segment-end muted">running…</p>`}
  </section>`;
}

function renderSubAgent(child: RunView, links: RunLinks, depth: number): SafeHtml {
  if (depth > MAX_DEPTH) return html`<p class="sub-agent"><a href="${links.run(child.summary.runId)}">sub-agent run ${child.summary.runId}</a></p>`;
  return html`<details class="sub-agent" open data-run-id="${child.summary.runId}">
    <summary>Sub-agent run <code>${child.summary.runId}</code> · <a href="${links.run(child.summary.runId)}">open</a></summary>
    ${renderTotals(child.summary)}
    ${renderRunBody(child, links, depth)}
  </details>`;
}

/** The segments of a run, and its sub-agents no tool call claims. */
function renderRunBody(run: RunView, links: RunLinks, depth: number): SafeHtml {
  return html`${run.segments.map((segment) => renderSegment(segment, run.summary.runId, links, depth))}${run.children.map((child) => renderSubAgent(child, links, depth + 1))}`;
}

/** Two model calls of the run side by side, when `compare` names two of its attempts. */
function renderCompare(run: RunView, compare: readonly string[] | undefined): SafeHtml {
  const chosen = (compare ?? []).map((key) => run.attempts.find((attempt) => attempt.key === key));
  const [first, second] = chosen;
  if (chosen.length !== 2 || !first || !second) return html``;
  return html`<section class="compare" data-part="compare"><h3>Side by side</h3><div class="pair">${renderAttempt(first)}${renderAttempt(second)}</div></section>`;
}

/** The whole page of one run: totals, the cost chart, a comparison if asked, then every step. */
export function renderRun(run: RunView, links: RunLinks, compare?: readonly string[]): SafeHtml {
  return html`<article class="run" data-run-id="${run.summary.runId}">
    <h2>Run <code>${run.summary.runId}</code>${run.summary.parentRunId === undefined ? '' : html` <span class="muted">sub-agent of <a href="${links.run(run.summary.parentRunId)}">${run.summary.parentRunId}</a>${run.summary.parentLoop && ` (${formatParentLoop(run.summary.parentLoop)})`}</span>`}</h2>
    ${renderTotals(run.summary)}
    ${renderCostChart(run)}
    ${renderCompare(run, compare)}
    ${renderRunBody(run, links, 0)}
  </article>`;
}
