import { describe, expect, it, vi } from 'vitest';
import { RedisError } from '../errors/redis-error';
import { useRedisServer } from '../testing/use-redis-server';
import { sharedBudget } from './shared-budget';

const { client } = useRedisServer();

/** A `model.response` event of `tokens` tokens. */
const response = (tokens: number) => ({
  runId: 'r',
  step: 1,
  timestamp: 0,
  attempt: 1,
  purpose: 'step' as const,
  provider: 'p',
  model: 'm',
  finishReason: 'stop' as const,
  latencyMs: 1,
  toolCalls: 0,
  inputTokens: tokens,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

describe('sharedBudget faults', () => {
  it('a debit owed from an outage stays in its own window: it never spends the next one', async () => {
    const window = 60_000;
    vi.useFakeTimers({ toFake: ['Date'] });
    const redis = client({ maxRetriesPerRequest: 0 });
    try {
      const start = (Math.floor(Date.now() / window) + 1) * window;
      vi.setSystemTime(start + window - 10);
      await redis.ping();
      const errors: unknown[] = [];
      const budget = sharedBudget({ redis, key: 'tenant:outage', limit: { tokens: 100 }, window, onError: (error) => errors.push(error) });
      redis.disconnect();
      await budget.debit(response(100));
      expect(errors[0]).toBeInstanceOf(RedisError);
      expect(errors[0]).toMatchObject({ problem: 'unavailable', retryable: true });
      vi.setSystemTime(start + window);
      await redis.connect();
      // The new window has spent nothing: the outage's debit belonged to the window that ended.
      expect(await budget.spent()).toEqual({ usd: 0, tokens: 0 });
      await budget.debit(response(30));
      await budget.settled();
      expect(await budget.spent()).toEqual({ usd: 0, tokens: 30 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a window that is not a whole number of milliseconds (a day / 7) stores its debits, so the fleet sees them', async () => {
    const errors: unknown[] = [];
    const budget = sharedBudget({ redis: client(), key: 'tenant:weekly', limit: { tokens: 1_000 }, window: 86_400_000 / 7, onError: (error) => errors.push(error) });
    await budget.debit(response(100));
    await budget.settled();
    expect(errors).toEqual([]);
    const other = sharedBudget({ redis: client(), key: 'tenant:weekly', limit: { tokens: 1_000 }, window: 86_400_000 / 7 });
    expect(await other.spent()).toEqual({ usd: 0, tokens: 100 });
  });

  it('a timeout longer than a timer can wait is still a timeout, not an instant failure', async () => {
    const errors: unknown[] = [];
    const budget = sharedBudget({ redis: client(), key: 'tenant:patient', limit: { tokens: 1_000 }, timeoutMs: 3_000_000_000, onError: (error) => errors.push(error) });
    await budget.debit(response(100));
    expect(await budget.spent()).toEqual({ usd: 0, tokens: 100 });
    expect(errors).toEqual([]);
  });

  it('a window too long for a key TTL (years on end) still stores its debits', async () => {
    for (const window of [Number.MAX_SAFE_INTEGER, 1e300]) {
      const errors: unknown[] = [];
      const budget = sharedBudget({ redis: client(), key: `tenant:long:${window}`, limit: { tokens: 1_000 }, window, onError: (error) => errors.push(error) });
      await budget.debit(response(100));
      await budget.settled();
      expect(errors).toEqual([]);
      expect(await sharedBudget({ redis: client(), key: `tenant:long:${window}`, limit: { tokens: 1_000 }, window }).spent()).toEqual({ usd: 0, tokens: 100 });
    }
  });

  it('refuses a window shorter than a millisecond, whose every window would be one key', () => {
    expect(() => sharedBudget({ redis: client(), key: 'k', limit: { tokens: 1 }, window: 1e-300 })).toThrow(/window must be 0 \(no window\) or at least 1 ms/);
    expect(() => sharedBudget({ redis: client(), key: 'k', limit: { tokens: 1 }, window: 0.5 })).toThrow(TypeError);
  });

  it('a debit the client resends after a dropped connection is counted once', async () => {
    const redis = client();
    const errors: unknown[] = [];
    const budget = sharedBudget({ redis, key: 'tenant:dropped', limit: { tokens: 1_000 }, onError: (error) => errors.push(error) });
    await budget.debit(response(1));
    const debited = budget.debit(response(100));
    // The debit has reached Redis; its reply is lost with the connection, and the client sends it again.
    await new Promise((resolve) => setImmediate(resolve));
    (redis as unknown as { stream: { destroy(): void } }).stream.destroy();
    await debited;
    await budget.debit(response(0));
    await budget.settled();
    expect(errors).toEqual([]);
    expect(await sharedBudget({ redis: client(), key: 'tenant:dropped', limit: { tokens: 1_000 } }).spent()).toEqual({ usd: 0, tokens: 101 });
  });
});
