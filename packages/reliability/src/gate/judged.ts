import type { ErrorKind } from '../error-kind';
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

/** Judges a response: `valid`, `invalid` (validation failure) or `error` (a failure of its own kind). */
export type Judge<TResponse, TValue> = (response: TResponse) => GateVerdict<TValue> | Promise<GateVerdict<TValue>>;
