import type { AgentBuilder } from '@keel/core';
import type { Span, Tracer } from '@opentelemetry/api';
import type { AttemptReason } from './attempt-reason';

/** What is open for one run. */
export interface RunSpans {
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

/** What every listener of one `telemetry()` extension shares: its settings and the open spans of each run. */
export interface TelemetryScope {
  /** The tracer spans are made with. */
  readonly tracer: Tracer;
  /** Whether text the model wrote (or that can quote it) may be recorded. */
  readonly recordContent: boolean;
  /** `gen_ai.agent.name`, when one was given. */
  readonly agentName: string | undefined;
  /** The open spans of each run in progress, by run id. */
  readonly runs: Map<string, RunSpans>;
}

/** Attaches one group of telemetry's listeners to a builder, sharing `scope` with the others. */
export type TelemetryListeners = <TOutput>(builder: AgentBuilder<TOutput>, scope: TelemetryScope) => AgentBuilder<TOutput>;

/** Ends the step's open call, or the open re-ask for `toolCallId`. */
export function endCall(spans: RunSpans, toolCallId?: string): void {
  spans.calls.get(toolCallId)?.end();
  spans.calls.delete(toolCallId);
}

/** Ends every open call. */
export function endCalls(spans: RunSpans): void {
  for (const call of spans.calls.values()) call.end();
  spans.calls.clear();
}

/** The span a model call's children go under: the re-asked tool call's, else the run's. */
export function parentOf(spans: RunSpans, toolCallId?: string): Span {
  return (toolCallId === undefined ? undefined : spans.tools.get(toolCallId)) ?? spans.run;
}

/** The span an event of a call belongs on: the open model call's, else its parent. */
export function currentSpan(spans: RunSpans, toolCallId?: string): Span {
  return spans.calls.get(toolCallId) ?? parentOf(spans, toolCallId);
}
