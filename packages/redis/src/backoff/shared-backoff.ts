import type { AgentEvents, Extension, ModelResponse } from '@keel/core';
import { AbortedError, type ErrorKind, type PreCheckRule } from '@keel/reliability';
import { RedisError } from '../errors/redis-error';
import { boundedCall } from '../redis/bounded-call';
import type { RedisClient } from '../redis/redis-client';
import { notifyObserver } from '../support/notify-observer';
import { extendScript, remainingScript } from './backoff-scripts';

/** Settings of {@link sharedBackoff}. */
export interface SharedBackoffOptions {
  /** An ioredis client (`Redis` or `Cluster`). */
  readonly redis: RedisClient;
  /**
   * The Redis key of the provider account the fleet shares (one key per API key or rate limit).
   * Default `keel:backoff`.
   */
  readonly key?: string;
  /** Failures whose Retry-After the fleet honours. Default `rate-limit` and `overloaded`. */
  readonly kinds?: readonly ErrorKind[];
  /**
   * Longest backoff the fleet takes from one Retry-After, in milliseconds: a longer header (a
   * year-long date from a gateway, say) sets the key for this long only. Default 30 000, the
   * agent's default `maxRetryAfterMs`; keep it at or below your agents' `maxRetryAfterMs`.
   */
  readonly maxBackoffMs?: number;
  /** Longest wait for one Redis call. Default 500. */
  readonly timeoutMs?: number;
  /** Told about every Redis failure; the backoff then fails open (calls go ahead). */
  readonly onError?: (error: RedisError) => void;
}

/**
 * A backoff shared by a fleet. Attach it with `builder.use(backoff)`: it adds the PreCheck rule
 * that waits and the `model.error` listener that tells the fleet. Attach it before budget rules,
 * so that they judge the call after the wait. Its parts are there for wiring by hand.
 */
export interface SharedBackoff extends Extension {
  /**
   * The PreCheck rule `shared-backoff`: before every attempt it waits until the fleet's backoff
   * has passed (reported as a `reliability.wait` event with rule `shared-backoff`). Put it
   * before budget rules, so that they judge the call after the wait.
   */
  readonly preCheck: PreCheckRule<ModelResponse>;
  /** A `model.error` listener: a rate-limit or overload with a Retry-After makes the whole fleet back off. */
  readonly report: (event: AgentEvents['model.error']) => Promise<void>;
  /** Makes the fleet wait `ms` milliseconds, at most `maxBackoffMs` (never shortens a longer wait already set). */
  backOff(ms: number): Promise<void>;
  /** Milliseconds the fleet still waits (0 when none). */
  remaining(signal?: AbortSignal): Promise<number>;
}

const DEFAULT_KINDS: readonly ErrorKind[] = Object.freeze(['rate-limit', 'overloaded']);
const MIN_WAIT_MS = 10;

/**
 * A backoff shared by every worker using one provider account. When any worker gets a rate-limit
 * or overloaded answer with a Retry-After, a Redis key is set with that millisecond TTL (only ever
 * extended); before each call every worker reads the key's TTL and waits it out, so the fleet
 * backs off together instead of stampeding. The key never lives longer than `maxBackoffMs`
 * (default 30 s), whatever a header says; the wait obeys the run's signal and is capped by the
 * agent's `maxRetryAfterMs`. When Redis is unreachable it fails open: calls go ahead, `onError`
 * is told, and no Redis call waits longer than `timeoutMs`.
 *
 * Attach it with `Agent.create(…).use(backoff)`, before any budget.
 */
export function sharedBackoff(options: SharedBackoffOptions): SharedBackoff {
  const { redis, key = 'keel:backoff', kinds = DEFAULT_KINDS, maxBackoffMs = 30_000, timeoutMs = 500, onError } = options;
  if (typeof key !== 'string' || key === '') throw new TypeError('sharedBackoff: key must be a non-empty string');
  if (!Number.isSafeInteger(maxBackoffMs) || maxBackoffMs < 1) throw new TypeError(`sharedBackoff: maxBackoffMs must be a whole number >= 1, got ${maxBackoffMs}`);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError(`sharedBackoff: timeoutMs must be a finite number > 0, got ${timeoutMs}`);
  const reportUnavailable = (error: unknown) => {
    // An abort is the run's to report: the attempt that follows sees the signal and stops.
    if (AbortedError.isInstance(error)) return;
    if (!RedisError.isInstance(error) || error.problem !== 'unavailable') throw error;
    notifyObserver(onError, error);
  };

  const remaining = async (signal?: AbortSignal) => Number(await boundedCall(() => remainingScript.run(redis, [key], [maxBackoffMs]), { operation: 'shared-backoff read', timeoutMs, signal }));

  const backOff = async (ms: number) => {
    if (typeof ms !== 'number' || Number.isNaN(ms) || ms <= 0) return;
    // A Retry-After is outside input: capped before it becomes a TTL.
    const capped = Math.min(Math.ceil(ms), maxBackoffMs);
    await boundedCall(() => extendScript.run(redis, [key], [capped, Date.now() + capped, maxBackoffMs]), { operation: 'shared-backoff write', timeoutMs });
  };

  const preCheck: PreCheckRule<ModelResponse> = {
    kind: 'shared-backoff',
    label: `wait while the fleet backs off ("${key}")`,
    then: 'continue',
    when: () => true,
    backoff: async (scope) => {
      try {
        const left = await remaining(scope.signal);
        // The last few milliseconds are not worth a wait (the rate-limited worker's own retry wakes just before the key expires).
        return left < MIN_WAIT_MS ? 0 : left;
      } catch (error) {
        reportUnavailable(error);
        return 0;
      }
    },
  };
  const report: SharedBackoff['report'] = async (event) => {
    if (event.retryAfterMs === undefined || !kinds.includes(event.errorKind)) return;
    try {
      await backOff(event.retryAfterMs);
    } catch (error) {
      reportUnavailable(error);
    }
  };
  const attach: Extension = (builder) => builder.reliability({ preCheck: [preCheck] }).on('model.error', report);
  return Object.assign(attach, { preCheck, report, backOff, remaining });
}
