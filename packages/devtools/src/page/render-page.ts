import { basename } from 'node:path';
import type { TraceRuns } from '../view/build-run-views';
import type { TraceSnapshot } from '../view/trace-file-reader';
import { formatParentLoop, formatTime, formatUsd, html, type SafeHtml } from './html';
import { PAGE_SCRIPT } from './page-script';
import { PAGE_STYLE } from './page-style';
import { type RunLinks, renderRun } from './render-run';

/** What the page shows: the file, its runs, the chosen run and the attempts to compare. */
export interface PageRequest {
  readonly file: string;
  readonly snapshot: TraceSnapshot;
  readonly runs: TraceRuns;
  readonly runId?: string;
  readonly compare?: readonly string[];
}

/** Links within the page (query parameters only, escaped where they are written). */
export const LINKS: RunLinks = {
  run: (runId) => `/?run=${encodeURIComponent(runId)}`,
  compare: (runId, first, second) => `/?run=${encodeURIComponent(runId)}&compare=${encodeURIComponent(`${first},${second}`)}`,
};

function renderRunList(request: PageRequest, selected: string | undefined): SafeHtml {
  const { runs } = request.runs;
  if (runs.length === 0) return html`<p class="muted">No runs yet. Runs appear here as the file grows.</p>`;
  return html`${runs.map(
    (run) => html`<a href="${LINKS.run(run.runId)}" class="run-link${run.runId === selected ? ' selected' : ''}" data-run-id="${run.runId}">
      <span class="tag status-${run.status.replace(/[^a-z]/g, '')}">${run.status}</span> <code>${run.runId.slice(0, 8)}</code> ${run.model}<br>
      <span class="muted">${formatTime(run.startedAt)} · ${run.modelCalls} call(s) · ${run.reAsks} re-ask(s) · ${run.costUsd === undefined ? 'not priced' : formatUsd(run.costUsd)}</span>
      ${run.parentLoop && html`<br><span class="muted parent-loop">${formatParentLoop(run.parentLoop)}</span>`}
    </a>`,
  )}`;
}

/** The content that changes as the file grows: the run list and the chosen run (swapped in place when the file changes). */
export function renderApp(request: PageRequest): SafeHtml {
  const { snapshot, runs } = request;
  const chosen = request.runId ?? runs.runs[0]?.runId;
  const view = chosen === undefined ? undefined : runs.view(chosen);
  const main = view
    ? renderRun(view, LINKS, request.compare)
    : request.runId === undefined
      ? html`<p class="muted">${snapshot.exists ? 'Waiting for the first run…' : html`Waiting for <code>${request.file}</code> to be written…`}</p>`
      : html`<p class="notice">No run <code>${request.runId}</code> in this file.</p>`;
  return html`<header class="top"><h1>Keel devtools</h1><code title="${request.file}">${basename(request.file)}</code><span class="muted">${runs.runs.length} run(s)${snapshot.skippedLines > 0 ? ` · ${snapshot.skippedLines} line(s) that are neither journal entries nor events were skipped` : ''}${runs.dropped > 0 ? html` · <span data-part="dropped">${runs.dropped} line(s) dropped by the writer (the file could not be written in time)</span>` : ''}</span></header>
    <div class="layout"><nav class="runs" aria-label="runs">${renderRunList(request, view?.summary.runId)}</nav><main>${main}</main></div>`;
}

/** The whole page: one HTML document with its style and script inline under `nonce`, nothing loaded from elsewhere. */
export function renderPage(request: PageRequest, nonce: string): string {
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Keel devtools</title><style nonce="${nonce}">${{ html: PAGE_STYLE }}</style></head>
<body><div id="app" data-version="${request.snapshot.version}">${renderApp(request)}</div><script nonce="${nonce}">${{ html: PAGE_SCRIPT }}</script></body></html>`.html
  }`;
}
