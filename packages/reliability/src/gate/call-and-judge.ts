import type { ErrorKind } from '../error-kind';
import { AbortedError } from '../errors/aborted-error';
import { BadResponseError } from '../errors/bad-response-error';
import { isPromiseLike, raceSignal } from '../race-signal';
import { type UsageTotals, ZERO_USAGE } from '../usage';
import type { GateAttemptContext, GateVerdict } from './gate-options';
import type { GateRun } from './gate-run';

/** The provider call and the verdict on its answer: what happened, before anything is recorded. */
export interface Judged<TResponse, TValue> {
  readonly response: TResponse | undefined;
  readonly thrown: unknown;
  readonly verdict: GateVerdict<TValue> | undefined;
  readonly validatorError: unknown;
  readonly kind: ErrorKind;
  readonly retryAfterMs: number | undefined;
  readonly usage: UsageTotals;
  readonly latencyMs: number;
}

/**
 * Calls and judges one attempt. Not an async function: the attempt waits once for the call (and
 * once more only for an asynchronous validator), with no extra frame held while the call runs.
 */
export function callAndJudge<TResponse, TValue>(run: GateRun<TResponse, TValue>, context: GateAttemptContext): Promise<Judged<TResponse, TValue>> {
  const started = performance.now();
  let called: Promise<TResponse>;
  try {
    called = raceSignal(run.options.call(context), run.signal);
  } catch (thrown) {
    return Promise.resolve(failed(run, started, thrown));
  }
  return called.then(
    (response) => judge(run, context, response, started),
    (thrown: unknown) => failed(run, started, thrown),
  );
}

/** A call that threw (or answered nothing): classified, with no response. */
function failed<TResponse, TValue>(run: GateRun<TResponse, TValue>, started: number, thrown: unknown): Judged<TResponse, TValue> {
  // Throwing `undefined` or `null` breaks the spec: there is no error to classify.
  const error = thrown === undefined || thrown === null ? new BadResponseError({ message: `the call threw ${String(thrown)}` }) : thrown;
  const latencyMs = performance.now() - started;
  const classified = run.classify(error);
  const kind = run.signal?.aborted ? 'aborted' : classified.kind;
  return { response: undefined, thrown: error, verdict: undefined, validatorError: undefined, kind, retryAfterMs: classified.retryAfterMs, usage: ZERO_USAGE, latencyMs };
}

/** The fields of an answered attempt, before its verdict. */
type Answered<TResponse> = Pick<Judged<TResponse, never>, 'response' | 'thrown' | 'retryAfterMs' | 'usage' | 'latencyMs'>;

/** Judges an answer: its usage, then the verdict (raced against the signal when the validator is asynchronous). */
function judge<TResponse, TValue>(run: GateRun<TResponse, TValue>, context: GateAttemptContext, response: TResponse, started: number): Judged<TResponse, TValue> | Promise<Judged<TResponse, TValue>> {
  if (response === undefined || response === null) return failed(run, started, new BadResponseError({ message: `the call returned ${String(response)}` }));
  const { options, signal } = run;
  const latencyMs = performance.now() - started;
  const usage = options.usageOf?.(response, context) ?? ZERO_USAGE;
  const answered: Answered<TResponse> = { response, thrown: undefined, retryAfterMs: undefined, usage, latencyMs };
  let judged: GateVerdict<TValue> | Promise<GateVerdict<TValue>>;
  let pending: boolean;
  try {
    judged = options.validate ? options.validate(response, context) : { status: 'accept' as const, value: response as unknown as TValue };
    pending = isPromiseLike<GateVerdict<TValue>>(judged);
  } catch (error) {
    return validatorFailed(run, answered, error);
  }
  // An async validator that never settles cannot hold the run.
  if (pending) {
    return raceSignal(judged as Promise<GateVerdict<TValue>>, signal).then(
      (verdict) => withVerdict(run, answered, verdict),
      (error: unknown) => validatorFailed(run, answered, error),
    );
  }
  return withVerdict(run, answered, judged as GateVerdict<TValue>);
}

function withVerdict<TResponse, TValue>(run: GateRun<TResponse, TValue>, answered: Answered<TResponse>, verdict: GateVerdict<TValue>): Judged<TResponse, TValue> {
  try {
    const kind = verdict.status === 'accept' ? 'ok' : verdict.status === 'invalid' ? (verdict.failure.stage === 'json-parse' ? 'parse-fail' : 'schema-fail') : verdict.errorKind;
    return { ...answered, verdict, validatorError: undefined, kind };
  } catch (error) {
    return validatorFailed(run, answered, error);
  }
}

function validatorFailed<TResponse, TValue>(run: GateRun<TResponse, TValue>, answered: Answered<TResponse>, error: unknown): Judged<TResponse, TValue> {
  if (run.signal?.aborted || AbortedError.isInstance(error)) return { ...answered, verdict: undefined, validatorError: undefined, thrown: error, kind: 'aborted' };
  // A validator that crashes is a bug, not a model failure: counted, reported, never retried.
  return { ...answered, verdict: undefined, validatorError: error, kind: 'unknown' };
}
