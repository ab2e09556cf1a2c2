import type { AgentBuilder, AgentEvents } from '@keel/core';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { AttemptReason } from './attempt-reason';
import type { RunSpans, TelemetryScope } from './run-spans';
import { endCall, endCalls, parentOf } from './run-spans';

/**
 * The model call spans (`chat {model}`): opened at `model.request` (a re-ask under the tool call
 * it is for), annotated by the response or error, and ended when the run moves on. With
 * `recordContent`, prompts and outputs are recorded on them too.
 */
export function modelCallSpans<TOutput>(builder: AgentBuilder<TOutput>, scope: TelemetryScope): AgentBuilder<TOutput> {
  const { runs, recordContent } = scope;
  const extended = builder
    .on('model.request', (event) => {
      const spans = runs.get(event.runId);
      if (spans) startCall(scope, spans, event);
    })
    .on('model.response', (event) => {
      const span = runs.get(event.runId)?.calls.get(event.toolCallId);
      if (!span) return;
      span.setAttributes({
        'gen_ai.response.model': event.model,
        'gen_ai.response.finish_reasons': [event.finishReason],
        'gen_ai.usage.input_tokens': event.inputTokens,
        'gen_ai.usage.output_tokens': event.outputTokens,
        'gen_ai.usage.cache_read.input_tokens': event.cacheReadTokens,
        'gen_ai.usage.cache_creation.input_tokens': event.cacheWriteTokens,
        'keel.response.tool_calls': event.toolCalls,
      });
      if (event.costUsd !== undefined) span.setAttribute('keel.cost_usd', event.costUsd);
    })
    .on('model.error', (event) => {
      const span = runs.get(event.runId)?.calls.get(event.toolCallId);
      if (!span) return;
      span.setAttribute('error.type', event.errorKind);
      if (event.retryAfterMs !== undefined) span.setAttribute('keel.retry_after_ms', event.retryAfterMs);
      // A provider's message can quote the output it could not read: content.
      span.setStatus({ code: SpanStatusCode.ERROR, message: recordContent ? `${event.errorName}: ${event.message}` : `${event.errorName} (${event.errorKind})` });
      // Left open until the run moves on, so the retry or fail-fast that follows lands on it.
    })
    .on('step.end', (event) => {
      const spans = runs.get(event.runId);
      if (spans) endCalls(spans);
    });
  if (!recordContent) return extended;
  return extended.on('model.content', (event) => {
    const span = runs.get(event.runId)?.calls.get(event.toolCallId);
    if (!span) return;
    if (event.system !== undefined) span.setAttribute('gen_ai.system_instructions', event.system);
    span.setAttributes({ 'gen_ai.input.messages': event.input, 'gen_ai.output.messages': event.output });
  });
}

/** Ends the call this one replaces and opens the span of the model call `event` announces. */
function startCall(scope: TelemetryScope, spans: RunSpans, event: AgentEvents['model.request']): void {
  endCall(spans, event.toolCallId);
  let reason: AttemptReason = 'tool-re-ask';
  if (event.purpose === 'step') {
    reason = event.attempt === 1 ? 'step' : (spans.nextReason ?? 'retry');
    delete spans.nextReason;
  }
  // A re-ask for a tool's arguments belongs to that tool call's span.
  const parent = trace.setSpan(context.active(), parentOf(spans, event.toolCallId));
  const call = scope.tracer.startSpan(
    `chat ${event.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': event.provider,
        'gen_ai.request.model': event.model,
        'keel.step': event.step,
        'keel.attempt': event.attempt,
        'keel.request.reason': reason,
        'keel.request.messages': event.messageCount,
        'keel.request.ephemeral_messages': event.ephemeralCount,
        'keel.request.tool_choice': event.toolChoice,
      },
    },
    parent,
  );
  spans.calls.set(event.toolCallId, call);
}
