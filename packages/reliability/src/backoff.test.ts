import { afterEach, describe, expect, it, vi } from 'vitest';
import { exponentialBackoff } from './backoff';
import { AbortedError } from './errors/aborted-error';
import { sleep } from './sleep';

describe('exponentialBackoff', () => {
  it('grows exponentially with the number of retries', () => {
    const delay = exponentialBackoff({ baseMs: 100, factor: 2, jitter: 0 });
    expect([0, 1, 2, 3].map((retries) => delay({ retries }))).toEqual([100, 200, 400, 800]);
  });

  it('uses the injected random source for jitter', () => {
    const low = exponentialBackoff({ baseMs: 100, factor: 3, jitter: 0.5, random: () => 0 });
    const high = exponentialBackoff({ baseMs: 100, factor: 3, jitter: 0.5, random: () => 0.999_999 });
    const middle = exponentialBackoff({ baseMs: 100, factor: 3, jitter: 0.5, random: () => 0.5 });
    expect(low({ retries: 2 })).toBe(450);
    expect(high({ retries: 2 })).toBe(900);
    expect(middle({ retries: 2 })).toBe(675);
  });

  it('never exceeds maxMs', () => {
    const delay = exponentialBackoff({ baseMs: 500, factor: 2, maxMs: 3_000, jitter: 0 });
    expect(delay({ retries: 2 })).toBe(2_000);
    expect(delay({ retries: 3 })).toBe(3_000);
    expect(delay({ retries: 30 })).toBe(3_000);
    const jittered = exponentialBackoff({ baseMs: 500, maxMs: 3_000, jitter: 1, random: () => 0.999_999 });
    expect(jittered({ retries: 10 })).toBeLessThanOrEqual(3_000);
  });

  it('keeps jittered delays within [raw × (1 − jitter), raw]', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return (seed - 1) / 2_147_483_646;
    };
    const delay = exponentialBackoff({ baseMs: 1_000, factor: 2, jitter: 0.25, random });
    for (let sample = 0; sample < 200; sample++) {
      const value = delay({ retries: 1 });
      expect(value).toBeGreaterThanOrEqual(1_500);
      expect(value).toBeLessThanOrEqual(2_000);
    }
  });

  it('uses 500 ms base, factor 2 and half jitter by default', () => {
    const delay = exponentialBackoff({ random: () => 0 });
    expect(delay({ retries: 0 })).toBe(250);
    expect(delay({ retries: 1 })).toBe(500);
  });
});

describe('sleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves after the delay', async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = sleep(1_000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('resolves at once for a zero delay', async () => {
    await expect(sleep(0)).resolves.toBeUndefined();
  });

  it('rejects with AbortedError when the signal aborts during the wait, and clears its timer', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    const reason = new Error('user cancelled');
    controller.abort(reason);
    const error = await waiting.catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect((error as AbortedError).cause).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await sleep(60_000, controller.signal).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
  });
});
