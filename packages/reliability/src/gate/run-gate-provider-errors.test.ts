import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortedError } from '../errors/aborted-error';
import { strictOutputRules } from '../rules/strict-output-rules';
import { ZERO_USAGE } from '../usage';
import type { GateAttemptContext } from './gate-options';
import type { ReliabilityRule } from './rule';
import { script, recorder, gate, failFastOf, rateLimited } from '../testing/run-gate-fixture';

afterEach(() => {
  vi.useRealTimers();
});

describe('runGate: provider errors', () => {
  it('retries a transient error, honouring Retry-After capped by maxRetryAfterMs', async () => {
    const { call } = script(rateLimited(120_000), '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const result = await gate({ call, onEvent, limits: { maxRetryAfterMs: 20 } });
    expect(call).toHaveBeenCalledTimes(2);
    expect(result.value).toEqual({ title: 'ok' });
    expect(events).toContainEqual({ type: 'reliability.retry', attempt: 1, rule: 'transient-retry', errorKind: 'rate-limit', delayMs: 20, decision: 'retry' });
    expect(events.at(-1)).toEqual({ type: 'reliability.recovered', attempt: 2, priorFailures: 1, via: 'retry' });
    expect(result.attempts[0]).toMatchObject({ status: 'error', errorKind: 'rate-limit', usage: ZERO_USAGE });
  });

  it('caps Retry-After at 30 s by default and waits that long', async () => {
    vi.useFakeTimers();
    const { call } = script(rateLimited(120_000), '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const running = gate({ call, onEvent });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(call).toHaveBeenCalledTimes(1);
    expect(events.find((event) => event.type === 'reliability.retry')).toMatchObject({ delayMs: 30_000 });
    await vi.advanceTimersByTimeAsync(1);
    const result = await running;
    expect(call).toHaveBeenCalledTimes(2);
    expect(result.value).toEqual({ title: 'ok' });
  });

  it('uses exponential backoff when the provider gives no Retry-After', async () => {
    vi.useFakeTimers();
    const { call } = script({ throws: { status: 503 } }, '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const running = gate({ call, onEvent });
    await vi.advanceTimersByTimeAsync(1_000);
    await running;
    const retry = events.find((event) => event.type === 'reliability.retry');
    expect(retry).toMatchObject({ errorKind: 'server-error' });
    const delay = retry?.type === 'reliability.retry' ? retry.delayMs : -1;
    expect(delay).toBeGreaterThanOrEqual(250);
    expect(delay).toBeLessThanOrEqual(500);
  });

  it('gives up on transient errors after the default two retries', async () => {
    const { call } = script(rateLimited(0));
    const error = await failFastOf(gate({ call }));
    expect(call).toHaveBeenCalledTimes(3);
    // The stop says the failure was retried: its retries were used up.
    expect(error.kind).toBe('transient-retries-exhausted');
    expect(error.message).toContain('transient retries exhausted: 2 of 2');
    expect(error.errorKind).toBe('rate-limit');
  });

  it.each([
    ['auth', { status: 401, message: 'invalid key' }],
    ['auth', { errorKind: 'auth', message: 'forbidden' }],
    ['bad-request', { status: 400, message: 'bad' }],
    ['bad-request', { errorKind: 'bad-request', message: 'bad' }],
  ] as const)('never retries %s errors', async (kind, thrown) => {
    const { call } = script({ throws: thrown }, '{"title": "ok"}');
    const error = await failFastOf(gate({ call, postDecide: strictOutputRules() }));
    expect(call).toHaveBeenCalledTimes(1);
    expect(error.errorKind).toBe(kind);
    expect(error.attempts).toHaveLength(1);
  });

  it('reduces the fail-fast cause to { name, message } so no other field leaks', async () => {
    const secret = 'sk-live-SECRET';
    const thrown = Object.assign(new Error('Unauthorized'), { status: 401, headers: { authorization: `Bearer ${secret}` }, body: { key: secret } });
    const { call } = script({ throws: thrown });
    const error = await failFastOf(gate({ call }));
    expect(error.cause).toEqual({ name: 'Error', message: 'Unauthorized' });
    expect(JSON.stringify(error.cause)).not.toContain(secret);
    expect(error.message).not.toContain(secret);
    expect(error.message).toContain('Unauthorized');
  });

  it('reports an error verdict and fails fast when no rule handles it', async () => {
    const { call } = script('I refuse');
    const error = await failFastOf(gate({ call, validate: () => ({ status: 'error', errorKind: 'refusal', message: 'model refused' }) }));
    expect(error.errorKind).toBe('refusal');
    expect(error.cause).toEqual({ name: 'Error', message: 'model refused' });
    expect(call).toHaveBeenCalledTimes(1);
  });
});

describe('runGate: abort', () => {
  it('rejects with AbortedError when the signal aborts during a backoff wait, without another call', async () => {
    const controller = new AbortController();
    const { call } = script(rateLimited(60_000), '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const running = gate({
      call,
      signal: controller.signal,
      limits: { maxRetryAfterMs: 60_000 },
      onEvent: (event) => {
        onEvent(event);
        if (event.type === 'reliability.retry') setTimeout(() => controller.abort(), 0);
      },
    });
    const error = await running.catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);
    expect(events.some((event) => event.type === 'reliability.fail-fast')).toBe(false);
  });

  it('makes no call when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { call } = script('{"title": "ok"}');
    const error = await gate({ call, signal: controller.signal }).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(call).not.toHaveBeenCalled();
  });

  it('never retries an aborted call, even with rules that would retry', async () => {
    const controller = new AbortController();
    const always: ReliabilityRule<string> = { kind: 'always-retry', then: 'retry', when: () => true };
    const call = vi.fn(async (context: GateAttemptContext): Promise<string> => {
      expect(context.signal).toBe(controller.signal);
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    const error = await gate({ call, signal: controller.signal, postDecide: [always] }).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('treats a thrown AbortError as aborted even when the gate has no signal', async () => {
    const always: ReliabilityRule<string> = { kind: 'always-retry', then: 'retry', when: () => true };
    const { call } = script({ throws: new DOMException('aborted', 'AbortError') });
    const error = await gate({ call, postDecide: [always] }).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);
  });
});
