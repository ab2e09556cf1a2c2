import type { AgentBuilder, AgentEvents } from '@keel/core';
import { type Attributes, context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { RunSpans, TelemetryScope } from './run-spans';
import { endCalls } from './run-spans';

/**
 * The run span (`invoke_agent`): opened at `run.start` as a child of the span active where the
 * run starts, ended at `run.end` with the run's usage and status.
 */
export function runSpan<TOutput>(builder: AgentBuilder<TOutput>, scope: TelemetryScope): AgentBuilder<TOutput> {
  return builder
    .on('run.start', (event) => startRun(scope, event))
    .on('run.end', (event) => {
      const spans = scope.runs.get(event.runId);
      if (!spans) return;
      scope.runs.delete(event.runId);
      endRun(spans, event, scope.recordContent);
    });
}

/** Opens the run span and starts keeping the run's open spans. */
function startRun(scope: TelemetryScope, event: AgentEvents['run.start']): void {
  const { agentName, tracer } = scope;
  const attributes: Attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': event.provider,
    'gen_ai.request.model': event.model,
    'keel.run.id': event.runId,
  };
  if (agentName !== undefined) attributes['gen_ai.agent.name'] = agentName;
  if (event.conversationId !== undefined) attributes['gen_ai.conversation.id'] = event.conversationId;
  const name = agentName === undefined ? 'invoke_agent' : `invoke_agent ${agentName}`;
  const run = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes, startTime: event.timestamp }, context.active());
  scope.runs.set(event.runId, { run, provider: event.provider, calls: new Map(), tools: new Map() });
}

/** Ends whatever the run left open, then the run span with its usage and status. */
function endRun(spans: RunSpans, event: AgentEvents['run.end'], recordContent: boolean): void {
  endCalls(spans);
  for (const span of spans.tools.values()) span.end();
  spans.run.setAttributes({
    'gen_ai.usage.input_tokens': event.inputTokens,
    'gen_ai.usage.output_tokens': event.outputTokens,
    'gen_ai.usage.cache_read.input_tokens': event.cacheReadTokens,
    'gen_ai.usage.cache_creation.input_tokens': event.cacheWriteTokens,
    'keel.run.status': event.status,
    'keel.run.steps': event.steps,
    'keel.run.model_calls': event.modelCalls,
  });
  if (event.costUsd !== undefined) spans.run.setAttribute('keel.cost_usd', event.costUsd);
  // A suspended run waits for approvals: not an error.
  if (event.status !== 'complete' && event.status !== 'suspended') {
    spans.run.setAttribute('error.type', event.status === 'aborted' ? 'aborted' : (event.errorName ?? 'error'));
    // A fail-fast's message quotes the output (the word a scanner saw, validator messages): content.
    const kind = spans.failFastKind === undefined ? '' : ` (${spans.failFastKind})`;
    const message = recordContent ? (event.errorMessage ?? event.status) : event.status === 'aborted' ? 'aborted' : `${event.errorName ?? 'error'}${kind}: the run failed`;
    spans.run.setStatus({ code: SpanStatusCode.ERROR, message });
  }
  spans.run.end();
}
