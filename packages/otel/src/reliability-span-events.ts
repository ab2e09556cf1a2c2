import type { AgentBuilder, AgentEvents } from '@keel/core';
import { reasonOfRetry } from './attempt-reason';
import type { RunSpans, TelemetryScope } from './run-spans';
import { currentSpan, endCall, parentOf } from './run-spans';
import { addSpanEvent } from './span-event';

/**
 * The gate's events as span events on the model call they concern (else its parent): validation
 * failures, retries, waits, recoveries, fail-fasts, errors of rules and feedback, detected loops
 * and invalid usage. A retry also ends its call and says why the next one is made.
 */
export function reliabilitySpanEvents<TOutput>(builder: AgentBuilder<TOutput>, scope: TelemetryScope): AgentBuilder<TOutput> {
  const { runs, recordContent } = scope;
  return builder
    .on('validation.failed', (event) => {
      const spans = runs.get(event.runId);
      if (spans) recordValidationFailure(spans, event, recordContent);
    })
    .on('reliability.retry', (event) => {
      const spans = runs.get(event.runId);
      if (spans) recordRetry(spans, event, recordContent);
    })
    .on('reliability.wait', (event) => {
      // Between calls, before the attempt it names: on the span the delayed call goes under.
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(parentOf(spans, event.toolCallId), 'reliability.wait', { rule: event.rule, delay_ms: event.delayMs }, { 'keel.step': event.step, 'keel.attempt': event.attempt });
    })
    .on('reliability.recovered', (event) => {
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(currentSpan(spans, event.toolCallId), 'reliability.recovered', { via: event.via, prior_failures: event.priorFailures }, { 'keel.attempt': event.attempt });
    })
    .on('reliability.fail-fast', (event) => {
      const spans = runs.get(event.runId);
      if (!spans) return;
      spans.failFastKind = event.errorKind;
      addSpanEvent(currentSpan(spans, event.toolCallId), 'reliability.fail-fast', { rule: event.rule, label: event.label, phase: event.phase }, { 'error.type': event.errorKind, 'keel.attempt': event.attempt });
    })
    .on('reliability.rule-error', (event) => {
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(currentSpan(spans, event.toolCallId), 'reliability.rule-error', { rule: event.rule, phase: event.phase, part: event.part, message: recordContent ? event.message : undefined });
    })
    .on('reliability.feedback-error', (event) => {
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(currentSpan(spans, event.toolCallId), 'reliability.feedback-error', { source: event.source, message: recordContent ? event.message : undefined });
    })
    .on('reliability.loop-detected', (event) => {
      // On the step's call: the loop it would go round, the tools of one round, nudge or stop.
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(currentSpan(spans, event.toolCallId), 'reliability.loop-detected', { loop: event.loop, tools: event.tools, rounds: event.rounds, action: event.action }, { 'keel.attempt': event.attempt });
    })
    .on('usage.invalid', (event) => {
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(currentSpan(spans, event.toolCallId), 'usage.invalid', { field: event.field, received: event.received }, { 'keel.attempt': event.attempt });
    });
}

/** A failed validation, on the call whose output failed it, which it marks `parse-fail` or `schema-fail`. */
function recordValidationFailure(spans: RunSpans, event: AgentEvents['validation.failed'], recordContent: boolean): void {
  const span = currentSpan(spans, event.toolCallId);
  addSpanEvent(span, 'validation.failed', {
    stage: event.stage,
    issues: event.issueCount,
    // A parser's message can quote the output (`Unexpected token … "{"amount": x…"`): content.
    message: recordContent ? event.message : undefined,
    // A path is made of keys the model wrote (a key can be personal data): content.
    path: recordContent ? event.pathText : undefined,
    output: recordContent ? event.rawOutput : undefined,
  });
  span.setAttribute('error.type', event.stage === 'json-parse' ? 'parse-fail' : 'schema-fail');
}

/** A retry, on the call it follows, which it ends; a retry of the step's call says why the next one is made. */
function recordRetry(spans: RunSpans, event: AgentEvents['reliability.retry'], recordContent: boolean): void {
  if (event.toolCallId === undefined) spans.nextReason = reasonOfRetry(event);
  addSpanEvent(currentSpan(spans, event.toolCallId), 'reliability.retry', {
    rule: event.rule,
    error_kind: event.errorKind,
    delay_ms: event.delayMs,
    decision: event.decision,
    feedback: recordContent ? event.feedback : undefined,
  });
  endCall(spans, event.toolCallId);
}
