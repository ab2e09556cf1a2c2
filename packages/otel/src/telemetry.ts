import type { AgentBuilder, Extension } from '@keel/core';
import { context, trace, type Tracer } from '@opentelemetry/api';
import { modelCallSpans } from './model-call-spans';
import { reliabilitySpanEvents } from './reliability-span-events';
import { runSpan } from './run-span';
import { runSpanEvents } from './run-span-events';
import type { TelemetryListeners, TelemetryScope } from './run-spans';
import { toolSpans } from './tool-spans';

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

/** The groups of listeners telemetry attaches, each to its own spans or span events. */
const LISTENERS: readonly TelemetryListeners[] = [runSpan, modelCallSpans, reliabilitySpanEvents, toolSpans, runSpanEvents];

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
  const scope: TelemetryScope = {
    tracer: options.tracer ?? trace.getTracer('@keel/otel'),
    recordContent: options.recordContent ?? false,
    agentName: options.agentName,
    runs: new Map(),
  };
  return <TOutput>(builder: AgentBuilder<TOutput>): AgentBuilder<TOutput> => {
    let extended = builder;
    for (const listen of LISTENERS) extended = listen(extended, scope);
    // The call's span is current while it runs: HTTP client spans and a tool's own spans nest under it.
    return extended.wrapCalls((call, proceed) => {
      const spans = scope.runs.get(call.runId);
      const span = call.type === 'model' ? spans?.calls.get(call.toolCallId) : spans?.tools.get(call.toolCallId);
      return span ? context.with(trace.setSpan(context.active(), span), proceed) : proceed();
    });
  };
}
