import type { AttemptView, DecisionView } from '../view/run-view';
import { formatCount, formatUsd, html, type SafeHtml } from './html';

const NOT_RECORDED = 'not recorded (the trace was written without recordContent)';

/** The parts of a line that are known, joined; empty when none is. */
const parts = (...known: readonly (string | false | undefined)[]): string => known.filter((part): part is string => typeof part === 'string' && part !== '').join(' · ');

/** What the attempt is: the step's call, or a re-ask of a tool call's arguments. */
export function attemptTitle(attempt: AttemptView): string {
  if (attempt.purpose === 'tool-re-ask') return `step ${attempt.step} · re-ask ${attempt.attempt} of ${attempt.toolCallId ?? 'a tool call'}`;
  if (attempt.purpose === 'summary') return `step ${attempt.step} · summary ${attempt.attempt}`;
  return `step ${attempt.step} · attempt ${attempt.attempt}`;
}

/** `rejected`, `accepted` or `failed`: the card's colour. */
export function outcomeOf(attempt: AttemptView): 'accepted' | 'rejected' | 'failed' | 'open' {
  const type = attempt.decision?.type;
  if (type === undefined) return attempt.error || attempt.status === 'error' || attempt.status === 'invalid' ? 'failed' : 'open';
  if (type === 'accept' || type === 'run tools') return 'accepted';
  if (type === 'fail-fast' || type === 'exhausted' || type === 'gave-up') return 'failed';
  return 'rejected';
}

function renderFeedback(attempt: AttemptView): SafeHtml | undefined {
  const { feedback, feedbackSent } = attempt;
  if (!feedback && feedbackSent === true) {
    return html`<section class="feedback" data-part="feedback"><h4>Feedback sent <span class="tag ephemeral">ephemeral</span></h4><p class="muted">The journal says this request carried feedback; no event of the trace says which.</p></section>`;
  }
  if (!feedback) return undefined;
  return html`<section class="feedback" data-part="feedback">
    <h4>Feedback sent <span class="tag ephemeral">ephemeral</span>${feedback.rule === undefined ? '' : html` <span class="rule" data-part="feedback-rule">rule: ${feedback.rule}</span>`}</h4>
    ${feedback.text !== undefined ? html`<pre>${feedback.text}</pre>` : attempt.contentRecorded ? '' : html`<p class="muted">Text ${NOT_RECORDED}.</p>`}
  </section>`;
}

/** The kept messages the request added: shown with content; said to be left out only when the trace was written without it. */
function renderRequest(attempt: AttemptView): SafeHtml {
  const messages = attempt.newMessages;
  const via = attempt.via === undefined ? undefined : html`<p>output obtained via ${attempt.via}</p>`;
  if (!attempt.contentRecorded) return html`<section class="request" data-part="request"><h4>Request</h4>${via}<p class="muted">Messages ${NOT_RECORDED}.</p></section>`;
  if (!messages || messages.length === 0) return via ? html`<section class="request" data-part="request"><h4>Request</h4>${via}</section>` : html``;
  return html`<section class="request" data-part="request">
    <h4>Request <span class="muted">· ${messages.length} new message(s)</span></h4>
    ${via}
    ${messages.map((message) => html`<div class="message ${message.ephemeral ? 'is-ephemeral' : ''}"><span class="role">${message.role}${message.ephemeral ? ' · ephemeral' : ''}</span><pre>${message.text}</pre></div>`)}
  </section>`;
}

function renderAnswer(attempt: AttemptView): SafeHtml {
  const { response, error } = attempt;
  const shape = response ? parts(response.toolCalls === undefined ? undefined : `${response.toolCalls} tool call(s)`, response.finishReason === undefined ? undefined : `finish reason ${response.finishReason}`) : '';
  return html`<section class="answer" data-part="answer">
    <h4>Answer</h4>
    ${error ? html`<p class="error">${error.errorName} (${error.errorKind})${error.message === undefined ? '' : html`: ${error.message}`}</p>` : ''}
    ${renderStatus(attempt)}
    ${attempt.answer !== undefined ? html`<pre>${attempt.answer}</pre>` : response && !attempt.contentRecorded ? html`<p class="muted">${shape === '' ? 'Text' : `${shape}; text`} ${NOT_RECORDED}.</p>` : shape === '' ? '' : html`<p>${shape}</p>`}
  </section>`;
}

/** What the journal says of the call's outcome, when it failed and no event said more. */
function renderStatus(attempt: AttemptView): SafeHtml {
  const { status, errorKind, issueCount } = attempt;
  if (status === undefined || status === 'valid' || (status === 'error' && attempt.error !== undefined)) return html``;
  const kind = errorKind === undefined || errorKind === '' ? '' : ` (${errorKind})`;
  const issues = issueCount !== undefined && issueCount > 0 && attempt.issues.length === 0 ? ` · ${issueCount} issue(s)` : '';
  return html`<p class="status" data-part="status">${status}${kind}${issues}</p>`;
}

function renderChecks(attempt: AttemptView): SafeHtml {
  const { issues, repaired } = attempt;
  return html`${
    issues.length === 0
      ? ''
      : html`<section class="issues" data-part="issues"><h4>Validation</h4>${issues.map(
          (issue) => html`<div class="issue"><p><b>${issue.stage}</b>: ${issue.issueCount} issue(s)${issue.pathText === undefined ? '' : html`, first at <code>${issue.pathText}</code>`}</p>
          ${issue.message === undefined ? '' : html`<pre>${issue.message}</pre>`}
          ${issue.rawOutput === undefined ? '' : html`<details><summary>rejected output</summary><pre>${issue.rawOutput}</pre></details>`}</div>`,
        )}</section>`
  }${
    repaired
      ? html`<section class="repaired" data-part="repaired"><h4>Repairs and coercions</h4><p>${repaired.repairs || 'no repair'} · ${repaired.coercions} coercion(s)${repaired.coercedPaths ? html` at <code>${repaired.coercedPaths}</code>` : ''}</p></section>`
      : ''
  }`;
}

/** `ended`: the journal holds the call, so no decision is still to come. */
function renderDecision(decision: DecisionView | undefined, ended: boolean): SafeHtml {
  if (!decision) return html`<section class="decision" data-part="decision"><h4>Decision</h4><p class="muted">${ended ? 'none in the trace' : 'none recorded yet'}</p></section>`;
  return html`<section class="decision" data-part="decision"><h4>Decision</h4>
    <p><span class="tag decision-${decision.type.replace(/[^a-z-]/g, '')}">${decision.type}</span>${decision.rule === undefined ? '' : html` <span class="rule" data-part="rule">rule: ${decision.rule}</span>`}${
      decision.errorKind === undefined ? '' : html` · ${decision.errorKind}`
    }${decision.via === undefined ? '' : html` · recovered via ${decision.via}`}${decision.delayMs ? html` · after ${decision.delayMs} ms` : ''}${decision.label === undefined ? '' : html` · ${decision.label}`}</p>
  </section>`;
}

function renderUsage(attempt: AttemptView): SafeHtml {
  const { response } = attempt;
  if (!response) return html``;
  const cache = response.cacheReadTokens + response.cacheWriteTokens > 0 ? ` (+${formatCount(response.cacheReadTokens)} cache read, ${formatCount(response.cacheWriteTokens)} cache write)` : '';
  return html`<section class="usage" data-part="usage"><h4>Usage</h4>
    <p>${formatCount(response.inputTokens)} in · ${formatCount(response.outputTokens)} out${cache} · <b class="cost" data-part="cost">${response.costUsd === undefined ? 'no price' : formatUsd(response.costUsd)}</b>${response.latencyMs === undefined ? '' : ` · ${response.latencyMs.toFixed(1)} ms`}</p>
  </section>`;
}

/** One model call as a card: request, feedback, answer, checks, decision and rule, usage. */
export function renderAttempt(attempt: AttemptView, compareHref?: string): SafeHtml {
  return html`<article class="attempt outcome-${outcomeOf(attempt)}" id="attempt-${attempt.key}" data-attempt-key="${attempt.key}">
    <header><h3>${attemptTitle(attempt)}</h3><span class="muted">${[attempt.provider, attempt.model].filter((part) => part !== '').join('/')}</span>${compareHref === undefined ? '' : html` <a class="compare-link" href="${compareHref}">compare with the previous</a>`}</header>
    ${renderFeedback(attempt)}
    ${renderRequest(attempt)}
    ${renderAnswer(attempt)}
    ${renderChecks(attempt)}
    ${renderDecision(attempt.decision, attempt.status !== undefined)}
    ${renderUsage(attempt)}
    ${attempt.notes.length === 0 ? '' : html`<ul class="notes">${attempt.notes.map((line) => html`<li>${line}</li>`)}</ul>`}
  </article>`;
}
