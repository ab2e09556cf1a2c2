import { classifyError } from '../classify-error';
import type { ErrorKind } from '../error-kind';
import { AbortedError } from '../errors/aborted-error';
import { BadResponseError } from '../errors/bad-response-error';
import { isPromiseLike, raceSignal } from '../race-signal';
import type { GateVerdict } from './gate-options';

/** The provider call and the verdict on its answer: what happened, before anything is recorded. */
export interface Judged<TResponse, TValue> {
  readonly response: TResponse | undefined;
  readonly thrown: unknown;
  readonly verdict: GateVerdict<TValue> | undefined;
  /** What a crashing validator threw: a bug, counted and never retried. */
  readonly validatorError: unknown;
  /** `ok` or the failure's kind. */
  readonly errorKind: ErrorKind;
  /** Delay the provider asked for, in ms. */
  readonly retryAfterMs: number | undefined;
  readonly latencyMs: number;
}

/** The error an aborted attempt ends its gate with (never retried). */
export function abortedError(judged: Pick<Judged<unknown, unknown>, 'thrown'>, signal: AbortSignal | undefined): AbortedError {
  return signal?.aborted ? AbortedError.fromSignal(signal) : new AbortedError({ cause: judged.thrown });
}

/** Judges a response: `accept`, `invalid` (validation failure) or `error` (a failure of its own kind). */
export type Judge<TResponse, TValue> = (response: TResponse) => GateVerdict<TValue> | Promise<GateVerdict<TValue>>;

/**
 * Makes one call and judges its answer. Throwing is a provider failure, classified; resolving to
 * `undefined` or `null`, or throwing either, is a `bad-response`. The call and an asynchronous
 * judge are raced against `signal`. Not an async function: the attempt waits once for the call
 * (and once more only for an asynchronous judge), with no extra frame held while the call runs.
 */
export function callAndJudge<TResponse, TValue>(invoke: () => Promise<TResponse>, judge: Judge<TResponse, TValue>, signal: AbortSignal | undefined): Promise<Judged<TResponse, TValue>> {
  const started = performance.now();
  let called: Promise<TResponse>;
  try {
    called = signal ? raceSignal(invoke(), signal) : invoke();
  } catch (thrown) {
    return Promise.resolve(failed(signal, started, thrown));
  }
  return called.then(
    (response) => answered(judge, signal, response, started),
    (thrown: unknown) => failed(signal, started, thrown),
  );
}

/** A call that threw (or answered nothing): classified, with no response. */
function failed<TResponse, TValue>(signal: AbortSignal | undefined, started: number, thrown: unknown): Judged<TResponse, TValue> {
  const error = thrown === undefined || thrown === null ? new BadResponseError({ message: `the call threw ${String(thrown)}` }) : thrown;
  const classified = classifyError(error);
  const errorKind = signal?.aborted ? 'aborted' : classified.errorKind;
  return { response: undefined, thrown: error, verdict: undefined, validatorError: undefined, errorKind, retryAfterMs: classified.retryAfterMs, latencyMs: performance.now() - started };
}

type Answered<TResponse> = Pick<Judged<TResponse, never>, 'response' | 'thrown' | 'retryAfterMs' | 'latencyMs'>;

function answered<TResponse, TValue>(judge: Judge<TResponse, TValue>, signal: AbortSignal | undefined, response: TResponse, started: number): Judged<TResponse, TValue> | Promise<Judged<TResponse, TValue>> {
  if (response === undefined || response === null) return failed(signal, started, new BadResponseError({ message: `the call returned ${String(response)}` }));
  const base: Answered<TResponse> = { response, thrown: undefined, retryAfterMs: undefined, latencyMs: performance.now() - started };
  let judged: GateVerdict<TValue> | Promise<GateVerdict<TValue>>;
  let pending: boolean;
  try {
    judged = judge(response);
    pending = isPromiseLike<GateVerdict<TValue>>(judged);
  } catch (error) {
    return judgeFailed(signal, base, error);
  }
  // An async judge that never settles cannot hold the run.
  if (pending) {
    return raceSignal(judged as Promise<GateVerdict<TValue>>, signal).then(
      (verdict) => withVerdict(signal, base, verdict),
      (error: unknown) => judgeFailed(signal, base, error),
    );
  }
  return withVerdict(signal, base, judged as GateVerdict<TValue>);
}

function withVerdict<TResponse, TValue>(signal: AbortSignal | undefined, base: Answered<TResponse>, verdict: GateVerdict<TValue>): Judged<TResponse, TValue> {
  try {
    const errorKind = verdict.status === 'accept' ? 'ok' : verdict.status === 'invalid' ? (verdict.failure.stage === 'json-parse' ? 'parse-fail' : 'schema-fail') : verdict.errorKind;
    // Field by field: a spread here is the costliest line of an attempt.
    return { response: base.response, thrown: base.thrown, retryAfterMs: base.retryAfterMs, latencyMs: base.latencyMs, verdict, validatorError: undefined, errorKind };
  } catch (error) {
    return judgeFailed(signal, base, error);
  }
}

function judgeFailed<TResponse, TValue>(signal: AbortSignal | undefined, base: Answered<TResponse>, error: unknown): Judged<TResponse, TValue> {
  if (signal?.aborted || AbortedError.isInstance(error)) return { ...base, verdict: undefined, validatorError: undefined, thrown: error, errorKind: 'aborted' };
  return { ...base, verdict: undefined, validatorError: error, errorKind: 'unknown' };
}
