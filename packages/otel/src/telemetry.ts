import type { AgentBuilder, Extension } from '@keel/core';
import { type Attributes, context, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { type AttemptReason, reasonOfRetry } from './attempt-reason';
import { addSpanEvent } from './span-event';

/** Options of {@link telemetry}. */
export interface TelemetryOptions {
  /** The tracer spans are made with. Default: the global tracer provider's `@keel/otel` tracer. */
  readonly tracer?: Tracer;
  /**
   * Record prompts, outputs, rejected outputs and feedback text on the spans
   * (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`), and every
   * text that can quote them: error and status messages, validation paths (keys the model
   * wrote), fallback reasons. They may hold personal data: default `false`, and then spans hold
   * only Keel's own vocabulary (kinds, rule names, counts, token usage, ids you chose).
   */
  readonly recordContent?: boolean;
  /** `gen_ai.agent.name`, and the run span's name `invoke_agent {name}`. */
  readonly agentName?: string;
}

/** What is open for one run. */
interface RunSpans {
  readonly run: Span;
  readonly provider: string;
  /**
   * The open model calls, ended when the run moves on (so validation and retries land inside
   * them): the step's call under `undefined`, each re-ask under the tool call it is for (re-asks
   * of parallel tool calls run at once).
   */
  readonly calls: Map<string | undefined, Span>;
  /** Why the step's next model call is made, from the last `reliability.retry`. */
  nextReason?: AttemptReason;
  /** The error kind of the last fail-fast, for the run span's status. */
  failFastKind?: string;
  readonly tools: Map<string, Span>;
}

/**
 * Turns Keel's events into OpenTelemetry spans following the GenAI semantic conventions: a run
 * span (`invoke_agent`, a child of the span active where the run starts), a span per model call
 * (`chat {model}`, with the attempt number and why it was made), a span per tool call
 * (`execute_tool {name}`, holding the re-asks for its arguments); validation failures, retries,
 * waits, re-asks, recoveries, fail-fasts, repairs and errors of rules, feedback templates and
 * listeners as span events named after core's events (`keel.retry`, `keel.wait`, ...); errors
 * with `error.type`. Content only with `recordContent`: without it no span, event or attribute
 * holds a byte the model wrote (status messages are the error's name and kind, paths are left
 * out, the issue and coercion counts stay). While a model call or a tool runs, its span
 * is the active one, so the spans of instrumented HTTP clients and of the tool's own code nest
 * under it. Attach it with `builder.use(telemetry())`.
 */
export function telemetry(options: TelemetryOptions = {}): Extension {
  const tracer = options.tracer ?? trace.getTracer('@keel/otel');
  const recordContent = options.recordContent ?? false;
  const runs = new Map<string, RunSpans>();

  /** Ends the step's open call, or the open re-ask for `toolCallId`. */
  const endCall = (spans: RunSpans, toolCallId?: string) => {
    spans.calls.get(toolCallId)?.end();
    spans.calls.delete(toolCallId);
  };
  /** Ends every open call. */
  const endCalls = (spans: RunSpans) => {
    for (const call of spans.calls.values()) call.end();
    spans.calls.clear();
  };
  /** The span a model call's children go under: the re-asked tool call's, else the run's. */
  const parentOf = (spans: RunSpans, toolCallId?: string) => (toolCallId === undefined ? undefined : spans.tools.get(toolCallId)) ?? spans.run;
  /** The span an event of a call belongs on: the open model call's, else its parent. */
  const current = (spans: RunSpans, toolCallId?: string) => spans.calls.get(toolCallId) ?? parentOf(spans, toolCallId);

  const extension = <TOutput>(builder: AgentBuilder<TOutput>): AgentBuilder<TOutput> => {
    let extended = builder
      .on('run.start', (event) => {
        const attributes: Attributes = {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.provider.name': event.provider,
          'gen_ai.request.model': event.model,
          'keel.run.id': event.runId,
        };
        if (options.agentName !== undefined) attributes['gen_ai.agent.name'] = options.agentName;
        if (event.conversationId !== undefined) attributes['gen_ai.conversation.id'] = event.conversationId;
        const name = options.agentName === undefined ? 'invoke_agent' : `invoke_agent ${options.agentName}`;
        const run = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes, startTime: event.timestamp }, context.active());
        runs.set(event.runId, { run, provider: event.provider, calls: new Map(), tools: new Map() });
      })
      .on('model.request', (event) => {
        const spans = runs.get(event.runId);
        if (!spans) return;
        endCall(spans, event.toolCallId);
        let reason: AttemptReason = 'tool-re-ask';
        if (event.purpose === 'step') {
          reason = event.attempt === 1 ? 'step' : (spans.nextReason ?? 'retry');
          delete spans.nextReason;
        }
        // A re-ask for a tool's arguments belongs to that tool call's span.
        const parent = trace.setSpan(context.active(), parentOf(spans, event.toolCallId));
        const call = tracer.startSpan(
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
      .on('validation.failed', (event) => {
        const spans = runs.get(event.runId);
        if (!spans) return;
        const span = current(spans, event.toolCallId);
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
      })
      .on('reliability.retry', (event) => {
        const spans = runs.get(event.runId);
        if (!spans) return;
        if (event.toolCallId === undefined) spans.nextReason = reasonOfRetry(event);
        addSpanEvent(current(spans, event.toolCallId), 'reliability.retry', {
          rule: event.kind,
          error_kind: event.errorKind,
          delay_ms: event.delayMs,
          decision: event.decision,
          feedback: recordContent ? event.feedback : undefined,
        });
        endCall(spans, event.toolCallId);
      })
      .on('reliability.wait', (event) => {
        // Between calls, before the attempt it names: on the span the delayed call goes under.
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(parentOf(spans, event.toolCallId), 'reliability.wait', { rule: event.kind, delay_ms: event.delayMs }, { 'keel.step': event.step, 'keel.attempt': event.attempt });
      })
      .on('reliability.recovered', (event) => {
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(current(spans, event.toolCallId), 'reliability.recovered', { via: event.via, prior_failures: event.priorFailures }, { 'keel.attempt': event.attempt });
      })
      .on('reliability.fail-fast', (event) => {
        const spans = runs.get(event.runId);
        if (!spans) return;
        spans.failFastKind = event.errorKind;
        addSpanEvent(current(spans, event.toolCallId), 'reliability.fail-fast', { rule: event.kind, label: event.label, phase: event.phase }, { 'error.type': event.errorKind, 'keel.attempt': event.attempt });
      })
      .on('reliability.rule-error', (event) => {
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(current(spans, event.toolCallId), 'reliability.rule-error', { rule: event.ruleKind, phase: event.phase, part: event.part, message: recordContent ? event.message : undefined });
      })
      .on('reliability.feedback-error', (event) => {
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(current(spans, event.toolCallId), 'reliability.feedback-error', { source: event.source, message: recordContent ? event.message : undefined });
      })
      .on('reliability.loop-detected', (event) => {
        // On the step's call: the loop it would go round, the tools of one round, nudge or stop.
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(current(spans, event.toolCallId), 'reliability.loop-detected', { loop: event.loop, tools: event.tools, rounds: event.rounds, action: event.action }, { 'keel.attempt': event.attempt });
      })
      .on('usage.invalid', (event) => {
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(current(spans, event.toolCallId), 'usage.invalid', { field: event.field, received: event.received }, { 'keel.attempt': event.attempt });
      })
      .on('tool.re-ask', (event) => {
        const spans = runs.get(event.runId);
        if (!spans) return;
        endCall(spans, event.toolCallId);
        addSpanEvent(
          spans.tools.get(event.toolCallId) ?? spans.run,
          'tool.re-ask',
          { number: event.reAsk, feedback: recordContent ? event.feedback : undefined },
          { 'gen_ai.tool.name': event.tool, 'gen_ai.tool.call.id': event.toolCallId },
        );
      })
      .on('tool.validation', (event) => {
        const spans = runs.get(event.runId);
        if (!spans) return;
        endCall(spans, event.toolCallId);
        addSpanEvent(
          spans.tools.get(event.toolCallId) ?? spans.run,
          'tool.validation',
          { outcome: event.outcome, retries: event.retryCount },
          { 'gen_ai.tool.name': event.tool, 'gen_ai.tool.call.id': event.toolCallId },
        );
      })
      .on('tool.start', (event) => {
        const spans = runs.get(event.runId);
        if (!spans) return;
        endCall(spans);
        // The name the model called may be one it made up (an unknown tool): content until the tool turns out to exist.
        const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.id': event.toolCallId, 'gen_ai.tool.type': 'function', 'keel.step': event.step };
        if (recordContent) attributes['gen_ai.tool.name'] = event.tool;
        const span = tracer.startSpan(recordContent ? `execute_tool ${event.tool}` : 'execute_tool', { kind: SpanKind.INTERNAL, attributes }, trace.setSpan(context.active(), spans.run));
        spans.tools.set(event.toolCallId, span);
      })
      .on('tool.end', (event) => {
        const spans = runs.get(event.runId);
        const span = spans?.tools.get(event.toolCallId);
        if (!spans || !span) return;
        endCall(spans, event.toolCallId);
        if (!recordContent && event.errorCode !== 'unknown-tool') {
          span.updateName(`execute_tool ${event.tool}`);
          span.setAttribute('gen_ai.tool.name', event.tool);
        }
        if (event.isError) {
          span.setAttribute('error.type', event.errorCode ?? 'tool-error');
          span.setStatus({ code: SpanStatusCode.ERROR, message: event.errorCode ?? 'tool-error' });
        }
        span.end();
        spans.tools.delete(event.toolCallId);
      })
      .on('step.end', (event) => {
        const spans = runs.get(event.runId);
        if (spans) endCalls(spans);
      })
      .on('context.compacted', (event) => {
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(spans.run, 'context.compacted', { reason: event.reason, tier: event.tier, tokens_before: event.tokensBefore, tokens_after: event.tokensAfter }, { 'keel.step': event.step });
      })
      .on('output.fallback-used', (event) => {
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(spans.run, 'output.fallback-used', { tier: event.tier, reason: recordContent ? event.reason : undefined });
      })
      .on('output.mode-downgraded', (event) => {
        const spans = runs.get(event.runId);
        // The provider's message may quote the schema: recorded with content only.
        if (spans) addSpanEvent(spans.run, 'output.mode-downgraded', { from: event.from, to: event.to, strict_tools: event.strictTools, reason: event.reason, detail: recordContent ? event.detail : undefined }, { 'keel.step': event.step });
      })
      .on('output.repaired', (event) => {
        // After the step's call has ended: the accepted answer is the run's.
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(spans.run, 'output.repaired', { repairs: event.repairs, coercions: event.coercions, coerced_paths: recordContent ? event.coercedPaths : undefined });
      })
      .on('listener.error', (event) => {
        const spans = runs.get(event.runId);
        if (spans) addSpanEvent(spans.run, 'listener.error', { event: event.event, message: recordContent ? event.message : undefined }, { 'error.type': event.errorName });
      })
      .on('run.end', (event) => {
        const spans = runs.get(event.runId);
        if (!spans) return;
        runs.delete(event.runId);
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
        if (event.status !== 'ok' && event.status !== 'suspended') {
          spans.run.setAttribute('error.type', event.status === 'aborted' ? 'aborted' : (event.errorName ?? 'error'));
          // A fail-fast's message quotes the output (the word a scanner saw, validator messages): content.
          const kind = spans.failFastKind === undefined ? '' : ` (${spans.failFastKind})`;
          const message = recordContent ? (event.errorMessage ?? event.status) : event.status === 'aborted' ? 'aborted' : `${event.errorName ?? 'error'}${kind}: the run failed`;
          spans.run.setStatus({ code: SpanStatusCode.ERROR, message });
        }
        spans.run.end();
      });
    // The call's span is current while it runs: HTTP client spans and a tool's own spans nest under it.
    extended = extended.wrapCalls((call, proceed) => {
      const spans = runs.get(call.runId);
      const span = call.type === 'model' ? spans?.calls.get(call.toolCallId) : spans?.tools.get(call.toolCallId);
      return span ? context.with(trace.setSpan(context.active(), span), proceed) : proceed();
    });
    if (recordContent) {
      extended = extended.on('model.content', (event) => {
        const span = runs.get(event.runId)?.calls.get(event.toolCallId);
        if (!span) return;
        if (event.system !== undefined) span.setAttribute('gen_ai.system_instructions', event.system);
        span.setAttributes({ 'gen_ai.input.messages': event.input, 'gen_ai.output.messages': event.output });
      });
    }
    return extended;
  };
  return extension;
}
