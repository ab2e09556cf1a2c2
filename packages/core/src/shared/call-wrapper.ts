/** A model call or a tool execution about to run, as a {@link CallWrapper} sees it. */
export type WrappedCall =
  | { readonly type: 'model'; readonly runId: string; readonly step: number; readonly attempt: number; readonly toolCallId?: string }
  | { readonly type: 'tool'; readonly runId: string; readonly step: number; readonly toolCallId: string; readonly toolName: string };

/**
 * Runs a model call or a tool's `execute` (`proceed`) and returns what it returns, e.g. inside a
 * tracing context so that the spans of an HTTP client or of the tool's own code nest under the
 * call's span. Given with `builder.wrapCalls()`, by integrations such as `telemetry()`. Call
 * `proceed` once and return its result; what it throws is the call's error.
 */
export type CallWrapper = <T>(call: WrappedCall, proceed: () => T) => T;

/**
 * `work`, run at most once: a later call returns (or throws) what the first did. A wrapper that
 * calls `proceed` twice so never makes a second, uncounted model call or runs a tool twice.
 */
function once<T>(work: () => T): () => T {
  let settled: { readonly value: T } | { readonly error: unknown } | undefined;
  return () => {
    if (!settled) {
      try {
        settled = { value: work() };
      } catch (error) {
        settled = { error };
      }
    }
    if ('error' in settled) throw settled.error;
    return settled.value;
  };
}

/**
 * The wrappers of an agent as one, the first given outermost; `undefined` when there are none.
 * Each wrapper's `proceed` runs what it wraps at most once.
 */
export function composeWrappers(wrappers: readonly CallWrapper[]): CallWrapper | undefined {
  if (wrappers.length === 0) return undefined;
  return wrappers.reduceRight<CallWrapper>(
    (inner, outer) => (call, proceed) => outer(call, once(() => inner(call, proceed))),
    (_call, proceed) => proceed(),
  );
}
