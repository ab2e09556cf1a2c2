import type { AgentBuilder, AgentEvents } from '@keel/core';
import { type Attributes, context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RunSpans, TelemetryScope } from './run-spans';
import { endCall } from './run-spans';
import { addSpanEvent } from './span-event';

/**
 * The tool call spans (`execute_tool {name}`): opened at `tool.start`, holding the re-asks for the
 * call's arguments and how its validation ended, ended at `tool.end` with its error code if it
 * failed. Without `recordContent` a tool is named only once it turns out to exist.
 */
export function toolSpans<TOutput>(builder: AgentBuilder<TOutput>, scope: TelemetryScope): AgentBuilder<TOutput> {
  const { runs, recordContent } = scope;
  return builder
    .on('tool.re-ask', (event) => onToolSpan(scope, event, 'tool.re-ask', { number: event.reAsk, feedback: recordContent ? event.feedback : undefined }))
    .on('tool.validation', (event) => onToolSpan(scope, event, 'tool.validation', { outcome: event.outcome, retries: event.retryCount }))
    .on('tool.start', (event) => {
      const spans = runs.get(event.runId);
      if (spans) startTool(scope, spans, event);
    })
    .on('tool.end', (event) => {
      const spans = runs.get(event.runId);
      if (spans) endTool(spans, event, recordContent);
    });
}

/** Ends the step's call and opens the span of the tool call `event` announces. */
function startTool(scope: TelemetryScope, spans: RunSpans, event: AgentEvents['tool.start']): void {
  const { recordContent, tracer } = scope;
  endCall(spans);
  // The name the model called may be one it made up (an unknown tool): content until the tool turns out to exist.
  const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.id': event.toolCallId, 'gen_ai.tool.type': 'function', 'keel.step': event.step };
  if (recordContent) attributes['gen_ai.tool.name'] = event.toolName;
  const span = tracer.startSpan(recordContent ? `execute_tool ${event.toolName}` : 'execute_tool', { kind: SpanKind.INTERNAL, attributes }, trace.setSpan(context.active(), spans.run));
  spans.tools.set(event.toolCallId, span);
}

/** Ends the tool call's last re-ask and its span, named (when it exists) and marked if it failed. */
function endTool(spans: RunSpans, event: AgentEvents['tool.end'], recordContent: boolean): void {
  const span = spans.tools.get(event.toolCallId);
  if (!span) return;
  endCall(spans, event.toolCallId);
  if (!recordContent && event.errorCode !== 'unknown-tool') {
    span.updateName(`execute_tool ${event.toolName}`);
    span.setAttribute('gen_ai.tool.name', event.toolName);
  }
  if (event.isError) {
    span.setAttribute('error.type', event.errorCode ?? 'tool-error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: event.errorCode ?? 'tool-error' });
  }
  span.end();
  spans.tools.delete(event.toolCallId);
}

/** A re-ask or validation event of a tool call: ends the re-ask's model call span, and is kept on the tool's span (else the run's). */
function onToolSpan(scope: TelemetryScope, event: { readonly runId: string; readonly toolCallId: string; readonly toolName: string }, name: 'tool.re-ask' | 'tool.validation', fields: Parameters<typeof addSpanEvent>[2]): void {
  const spans = scope.runs.get(event.runId);
  if (!spans) return;
  endCall(spans, event.toolCallId);
  addSpanEvent(spans.tools.get(event.toolCallId) ?? spans.run, name, fields, { 'gen_ai.tool.name': event.toolName, 'gen_ai.tool.call.id': event.toolCallId });
}
