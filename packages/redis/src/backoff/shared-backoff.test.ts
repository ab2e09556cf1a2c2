import { Agent, type AgentEvents } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import type { RedisError } from '../errors/redis-error';
import { useRedisServer } from '../testing/use-redis-server';
import { startWorkerProcess } from '../testing/worker-process';
import { sharedBackoff } from './shared-backoff';

const { server, client } = useRedisServer();

const rateLimited = (retryAfterMs: number) => Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfterMs });

/** A worker: its own Redis connection, its own agent, the call times its model saw. */
function worker(script: Parameters<typeof scriptedModel>[0]) {
  const backoff = sharedBackoff({ redis: client(), key: 'provider:acme' });
  const calls: number[] = [];
  const waits: AgentEvents['reliability.wait'][] = [];
  const retries: AgentEvents['reliability.retry'][] = [];
  const model = scriptedModel(async (request, call) => {
    calls.push(Date.now());
    return typeof script === 'function' ? script(request, call) : (script as string);
  });
  const agent = Agent.create({ provider: model, model: 'm' })
    .use(backoff)
    .on('reliability.wait', (event) => void waits.push(event))
    .on('reliability.retry', (event) => void retries.push(event))
    .build();
  return { agent, calls, waits, retries, backoff };
}

describe('sharedBackoff', () => {
  it('a 429 with Retry-After at one worker delays the next call of every other worker', async () => {
    const hit = worker((_request, call) => (call === 1 ? rateLimited(600) : 'recovered'));
    const others = [worker('fine'), worker('fine'), worker('fine')];
    const started = Date.now();
    const first = hit.agent.run('go');
    // The others start once the 429 has been seen and shared.
    while ((await hit.backoff.remaining()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const rateLimitedAt = hit.calls[0] as number;
    await Promise.all([first, ...others.map((other) => other.agent.run('go'))]);

    for (const other of others) {
      expect(other.calls).toHaveLength(1);
      // Every other worker's call waited out the fleet's backoff (a few ms of slack for timer granularity).
      expect((other.calls[0] as number) - rateLimitedAt).toBeGreaterThanOrEqual(580);
      expect(other.waits).toHaveLength(1);
      expect(other.waits[0]).toMatchObject({ rule: 'shared-backoff', attempt: 1 });
      expect(other.waits[0]?.delayMs).toBeGreaterThan(400);
    }
    // The worker that was rate-limited retried after its own Retry-After.
    expect(hit.retries).toEqual([expect.objectContaining({ errorKind: 'rate-limit', delayMs: 600 })]);
    expect((hit.calls[1] as number) - rateLimitedAt).toBeGreaterThanOrEqual(590);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('worker processes whose runs start after another worker’s 429 wait until its Retry-After has passed', async () => {
    const processes = Array.from({ length: 3 }, () => startWorkerProcess(new URL('../testing/backoff-worker.ts', import.meta.url), [String(server.port), 'provider:acme']));
    await Promise.all(processes.map((process) => process.waitFor((message) => (message as { event?: string }).event === 'ready', 20_000)));
    const hit = worker((_request, call) => (call === 1 ? rateLimited(1_000) : 'recovered'));
    const first = hit.agent.run('go');
    while ((await hit.backoff.remaining()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const rateLimitedAt = hit.calls[0] as number;
    await client().set('go', '1');
    const reports = (await Promise.all(processes.map((process) => process.waitFor((message) => 'calledAt' in (message as object), 20_000)))) as {
      startedAt: number;
      calledAt: number;
      waits: { rule: string; delayMs: number }[];
    }[];
    await first;
    for (const report of reports) {
      expect(report.startedAt - rateLimitedAt).toBeLessThan(1_000);
      expect(report.calledAt - rateLimitedAt).toBeGreaterThanOrEqual(980);
      expect(report.waits).toEqual([expect.objectContaining({ rule: 'shared-backoff' })]);
    }
  }, 30_000);

  it('never shortens a longer backoff, and does not wait when none is set', async () => {
    const { backoff, agent, waits } = worker('fine');
    await agent.run('go');
    expect(waits).toEqual([]);
    await backoff.backOff(1_000);
    await backoff.backOff(100);
    expect(await backoff.remaining()).toBeGreaterThan(800);
  });

  it('ignores failures without a Retry-After and kinds it does not handle', async () => {
    const { backoff } = worker('fine');
    const base = { runId: 'r', step: 1, timestamp: 0, attempt: 1, purpose: 'step' as const, provider: 'p', model: 'm', errorName: 'E', message: 'm', latencyMs: 1 };
    await backoff.report({ ...base, errorKind: 'rate-limit' });
    await backoff.report({ ...base, errorKind: 'bad-request', retryAfterMs: 5_000 });
    expect(await backoff.remaining()).toBe(0);
    await backoff.report({ ...base, errorKind: 'overloaded', retryAfterMs: 5_000 });
    expect(await backoff.remaining()).toBeGreaterThan(4_000);
  });
});

describe('sharedBackoff', () => {
  it('aborting a run stops its fleet wait at once', async () => {
    const { backoff, agent, calls } = worker('fine');
    await backoff.backOff(10_000);
    const controller = new AbortController();
    const run = agent.run('go', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(run).rejects.toMatchObject({ name: 'AbortedError' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(calls).toEqual([]);
  });

  it('fails open when Redis is down: the call goes ahead, the error is reported, nothing hangs', async () => {
    const errors: RedisError[] = [];
    const redis = client({ maxRetriesPerRequest: null, retryStrategy: () => 50 });
    await redis.ping();
    const backoff = sharedBackoff({ redis, timeoutMs: 200, onError: (error) => errors.push(error) });
    const agent = Agent.create({ provider: scriptedModel('fine'), model: 'm' }).reliability({ preCheck: [backoff.preCheck] }).build();
    await server.kill();
    try {
      const started = Date.now();
      await expect(agent.run('go')).resolves.toMatchObject({ text: 'fine' });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(errors.map((error) => [error.problem, error.operation])).toEqual([['unavailable', 'shared-backoff read']]);
    } finally {
      await server.restart();
    }
  });

  it('caps what one absurd Retry-After sets: a year-long header stalls the fleet for maxBackoffMs at most', async () => {
    const hit = worker((_request, call) => (call === 1 ? rateLimited(365 * 24 * 3_600_000) : 'recovered'));
    const year = 365 * 24 * 3_600_000;
    await hit.backoff.report({
      runId: 'r', step: 1, timestamp: 0, attempt: 1, purpose: 'step', provider: 'p', model: 'm',
      errorKind: 'rate-limit', errorName: 'E', message: 'm', latencyMs: 1, retryAfterMs: year,
    });
    const ttl = await client().pttl('provider:acme');
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    await hit.backoff.backOff(Number.POSITIVE_INFINITY);
    expect(await client().pttl('provider:acme')).toBeLessThanOrEqual(30_000);
    // A configured cap holds as well.
    const short = sharedBackoff({ redis: client(), key: 'provider:short', maxBackoffMs: 500 });
    await short.backOff(year);
    expect(await short.remaining()).toBeLessThanOrEqual(500);
  });

  it('cuts down a key that already lives longer than the cap (set by hand, or before the cap), so restarting workers is not needed', async () => {
    const redis = client();
    await redis.set('provider:acme', 'x', 'PX', 365 * 24 * 3_600_000);
    await redis.set('provider:forever', 'x');
    const backoff = sharedBackoff({ redis, key: 'provider:acme', maxBackoffMs: 300 });
    expect(await backoff.remaining()).toBe(300);
    expect(await redis.pttl('provider:acme')).toBeLessThanOrEqual(300);
    expect(await sharedBackoff({ redis, key: 'provider:forever', maxBackoffMs: 300 }).remaining()).toBe(300);
    // A run waits the capped time, not a year.
    const agent = Agent.create({ provider: scriptedModel('fine'), model: 'm' }).use(backoff).build();
    const started = Date.now();
    await expect(agent.run('go')).resolves.toMatchObject({ text: 'fine' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(() => sharedBackoff({ redis, maxBackoffMs: 0 })).toThrow(TypeError);
  });
});

