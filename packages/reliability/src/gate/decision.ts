import type { ErrorKind } from '../error-kind';
import type { ValidationFailure } from '../errors/validation-failure';
import type { FailFastPhase } from '../errors/reliability-fail-fast-error';
import type { GateEvent } from './gate-event';
import type { PatchRequest } from '../patch/patch-request';
import type { GateFeedback } from './gate-options';

/**
 * What every decision may imply for the gate's memory besides its type. `rejection`: a rule
 * rejected the attempt's valid value; the attempt is recorded as that `rule-rejected` failure.
 * Applied by `applyDecision`, never by the policy itself.
 */
interface DecisionEffects {
  /** `events` are what to report before acting (rule errors, `reliability.retry`, ...), in order. */
  readonly events: readonly GateEvent[];
  readonly rejection?: ValidationFailure | undefined;
}

/**
 * What the policy decided after an attempt, with everything needed to carry it out. A loop
 * switches on `type` exhaustively, so a new decision is a compile error until every loop handles it.
 */
export type Decision =
  /** Take the attempt's value (a valid value, or an invalid one a rule accepted with `accept`). */
  | ({ readonly type: 'accept' } & DecisionEffects)
  /**
   * Make another attempt on the same provider, after `delayMs`, carrying `feedback` when given.
   * With `patch`, the feedback asks for only the corrected values at the named paths: a reply that
   * is such a patch is applied to the rejected value and the whole is validated.
   */
  | ({ readonly type: 'retry'; readonly rule: string; readonly delayMs: number; readonly feedback?: GateFeedback; readonly patch?: PatchRequest } & DecisionEffects)
  /**
   * The output was cut at the token limit: ask the model to continue `partial` (its cut output,
   * trailing whitespace removed) rather than regenerate it, and judge the joined text as one reply.
   */
  | ({ readonly type: 'continue-output'; readonly partial: string } & DecisionEffects)
  /** Make another attempt on provider `provider` (an index into the failover list). */
  | ({ readonly type: 'retry-other'; readonly rule: string; readonly provider: number; readonly delayMs: number; readonly feedback?: GateFeedback } & DecisionEffects)
  /**
   * Stand in a degraded value (the caller's fallback); `rule` names the deciding rule. `instead`
   * is the stop this fallback replaces (a failure of the answer, see `GateSettings.fallbackOn`):
   * the loop ends with it when no fallback value can be had.
   */
  | ({ readonly type: 'fallback'; readonly rule: string; readonly instead?: FailFastDecision } & DecisionEffects)
  /**
   * Stop: a rule said so, a budget or cap ran out, or a rule or validator threw. `errorKind`, when
   * given, is the failure the stop is (`action-loop`) rather than the last attempt's.
   */
  | ({ readonly type: 'fail-fast'; readonly rule: string; readonly label?: string | undefined; readonly phase: FailFastPhase; readonly cause?: unknown; readonly errorKind?: ErrorKind } & DecisionEffects);

/** A stop. */
export type FailFastDecision = Extract<Decision, { type: 'fail-fast' }>;

/**
 * What the PreCheck rules decided before an attempt: make it (`admit`), wait `delayMs` first and
 * then ask the rules after index `next - 1` (`wait`, reported as `reliability.wait`), or stop.
 */
export type Admission =
  | { readonly type: 'admit' }
  | { readonly type: 'wait'; readonly delayMs: number; readonly next: number; readonly events: readonly GateEvent[] }
  | FailFastDecision;

/** Fails to compile when a switch over {@link Decision} misses a case; throws if reached anyway. */
export function unreachableDecision(decision: never): never {
  throw new TypeError(`unhandled decision ${JSON.stringify((decision as { type?: unknown }).type)}`);
}
