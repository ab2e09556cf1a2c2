import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { ReliabilityFailFastError, tokenBudget } from '@keel/reliability';
import { describe, expect, it, vi } from 'vitest';
import { RedisError } from '../errors/redis-error';
import { useRedisServer } from '../testing/use-redis-server';
import { startWorkerProcess } from '../testing/worker-process';
import { sharedBudget } from './shared-budget';

const { server, client } = useRedisServer();

/** A scripted model whose calls use `tokens` tokens each; an output schema makes the first answer fail validation. */
const model = (replies: readonly string[] | string, tokens = 100) =>
  scriptedModel(Array.isArray(replies) ? replies.map((text) => ({ text, usage: { inputTokens: tokens / 2, outputTokens: tokens / 2 } })) : { text: replies as string, usage: { inputTokens: tokens / 2, outputTokens: tokens / 2 } });

describe('sharedBudget', () => {
  it('debits every attempt that answered, failed validation included, and refuses calls once spent', async () => {
    const budget = sharedBudget({ redis: client(), key: 'tenant:a', limit: { tokens: 250 } });
    const provider = scriptedModel({ text: 'not json', usage: { inputTokens: 50, outputTokens: 50 } });
    const retryParseFailures = { kind: 'retry-parse', then: 'retry' as const, when: (scope: { errorKind: string }) => scope.errorKind === 'parse-fail' };
    const agent = Agent.create({ provider, model: 'm' })
      .outputSchema({ parse: (value: unknown) => value as { ok: boolean } })
      .reliability({ postDecide: [retryParseFailures] })
      .use(budget)
      .build();
    const error = await agent.run('go').catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'shared-budget', phase: 'pre-check' });
    // Three failed attempts (300 tokens) were made before the budget (250) stopped the fourth.
    expect(provider.calls).toBe(3);
    expect(await budget.spent()).toEqual({ usd: 0, tokens: 300 });
    // Another agent on the same key (another worker, its rules wired by hand) is refused at once.
    const other = Agent.create({ provider: model('hi'), model: 'm' }).reliability({ preCheck: [...sharedBudget({ redis: client(), key: 'tenant:a', limit: { tokens: 250 } }).preCheck] }).build();
    await expect(other.run('go')).rejects.toMatchObject({ kind: 'shared-budget' });
  });

  it('debits dollars exactly when the agent has prices, and works beside a run-level budget rule', async () => {
    const budget = sharedBudget({ redis: client(), key: 'tenant:usd', limit: { usd: 1 } });
    const pricing = { m: { inputPerMTok: 1_000, outputPerMTok: 1_000 } }; // 100 tokens = $0.10
    const agent = Agent.create({ provider: model('hi'), model: 'm', pricing })
      .reliability({ preCheck: [tokenBudget(1_000)] })
      .use(budget)
      .build();
    for (let run = 0; run < 3; run++) await agent.run('go');
    await budget.settled();
    expect(await budget.spent()).toEqual({ usd: 0.3, tokens: 300 });
  });

  it('reports a dollar limit on an agent without prices instead of ignoring it', async () => {
    const budget = sharedBudget({ redis: client(), key: 'tenant:unpriced', limit: { usd: 1 } });
    const errors: string[] = [];
    const agent = Agent.create({ provider: model('hi'), model: 'm' })
      .use(budget)
      .on('listener.error', (event) => void errors.push(event.message))
      .build();
    await agent.run('go');
    await budget.settled();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(errors).toEqual([expect.stringContaining('a usd limit needs the agent')]);
    expect(await budget.spent()).toEqual({ usd: 0, tokens: 100 });
  });

  it('starts afresh in each window', async () => {
    const window = 60_000;
    // The workers' clocks decide the window: a fake clock makes the test independent of the machine's speed.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = (Math.floor(Date.now() / window) + 1) * window;
      vi.setSystemTime(start);
      const budget = sharedBudget({ redis: client(), key: 'tenant:window', limit: { tokens: 100 }, window });
      const agent = Agent.create({ provider: model('hi'), model: 'm' }).use(budget).build();
      await agent.run('go');
      await budget.settled();
      vi.setSystemTime(start + window - 1);
      await expect(agent.run('go')).rejects.toMatchObject({ kind: 'shared-budget' });
      vi.setSystemTime(start + window);
      await expect(agent.run('go')).resolves.toMatchObject({ text: 'hi' });
      await budget.settled();
      expect(await budget.spent()).toEqual({ usd: 0, tokens: 100 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects bad settings', () => {
    expect(() => sharedBudget({ redis: client(), key: 'k', limit: {} })).toThrow(TypeError);
    expect(() => sharedBudget({ redis: client(), key: '', limit: { tokens: 1 } })).toThrow(TypeError);
    expect(() => sharedBudget({ redis: client(), key: 'k', limit: { usd: Number.NaN } })).toThrow(TypeError);
  });
});

describe('sharedBudget', () => {
  it('4 worker processes x 50 runs never overshoot by more than the calls in flight, and every call is debited', async () => {
    const workers = 4;
    const concurrency = 4;
    const limit = 5_000; // 50 calls of 100 tokens, for 200 runs
    const processes = Array.from({ length: workers }, () =>
      startWorkerProcess(new URL('../testing/budget-worker.ts', import.meta.url), [String(server.port), 'fleet', String(limit), '50', String(concurrency)]),
    );
    const reports = (await Promise.all(processes.map((worker) => worker.waitFor(() => true, 60_000)))) as { calls: number; completed: number; refused: number }[];
    await Promise.all(processes.map((worker) => worker.exited));
    const calls = reports.reduce((sum, report) => sum + report.calls, 0);
    const spent = await sharedBudget({ redis: client(), key: 'fleet', limit: { tokens: limit } }).spent();
    expect(spent.tokens).toBe(calls * 100);
    expect(reports.reduce((sum, report) => sum + report.completed + report.refused, 0)).toBe(200);
    expect(calls).toBeGreaterThanOrEqual(limit / 100);
    // Overshoot: at most one call per lane in flight across the fleet when the limit was crossed.
    expect(spent.tokens - limit).toBeLessThanOrEqual(workers * concurrency * 100);
  }, 90_000);

  it('fails closed when Redis is down (typed error reported, no hang), or open when asked', async () => {
    const errors: RedisError[] = [];
    const redis = client({ maxRetriesPerRequest: null, retryStrategy: () => 50 });
    await redis.ping();
    const closed = sharedBudget({ redis, key: 'down', limit: { tokens: 1_000 }, timeoutMs: 200, onError: (error) => errors.push(error) });
    const open = sharedBudget({ redis, key: 'down', limit: { tokens: 1_000 }, timeoutMs: 200, whenUnavailable: 'open' });
    const build = (budget: typeof closed) => Agent.create({ provider: model('hi'), model: 'm' }).use(budget).build();
    await server.kill();
    try {
      const started = Date.now();
      await expect(build(closed).run('go')).rejects.toMatchObject({ kind: 'shared-budget-unavailable', phase: 'pre-check' });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(errors[0]).toBeInstanceOf(RedisError);
      expect(errors[0]).toMatchObject({ problem: 'unavailable', retryable: true });
      expect(errors[0]?.operation).toBe('shared-budget read');
      const openBudget = build(open);
      await expect(openBudget.run('go')).resolves.toMatchObject({ text: 'hi' });
      await open.settled();
    } finally {
      await server.restart();
    }
    // The debit that could not be stored while Redis was down is kept and stored with the next one.
    await redis.ping();
    await build(open).run('go');
    await open.settled();
    expect((await open.spent()).tokens).toBe(200);
  });

  it('a budget key holding something else refuses calls (whatever whenUnavailable says) and names the key; it is never read as 0', async () => {
    const redis = client();
    const errors: unknown[] = [];
    for (const corrupt of [() => redis.set('tenant:bad', 'x'), () => redis.hset('tenant:bad', 'tokens', 'lots')]) {
      await redis.del('tenant:bad');
      await corrupt();
      const budget = sharedBudget({ redis, key: 'tenant:bad', limit: { tokens: 1_000 }, whenUnavailable: 'open', onError: (error) => errors.push(error) });
      const fine = scriptedModel('fine');
      const agent = Agent.create({ provider: fine, model: 'm' }).use(budget).build();
      await expect(agent.run('go')).rejects.toMatchObject({ name: 'ReliabilityFailFastError', kind: 'shared-budget-unavailable' });
      expect(fine.calls).toBe(0);
    }
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(RedisError.isInstance(error) && error.problem === 'key' && error.key).toBe('tenant:bad');
  });

  it('an absurd usage or price spends the budget instead of breaking the debit', async () => {
    const redis = client();
    const errors: unknown[] = [];
    const budget = sharedBudget({ redis, key: 'tenant:huge', limit: { usd: 1_000, tokens: 1e12 }, onError: (error) => errors.push(error) });
    const base = { runId: 'r', step: 1, timestamp: 0, attempt: 1, purpose: 'step' as const, provider: 'p', model: 'm', finishReason: 'stop' as const, latencyMs: 1, toolCalls: 0 };
    await budget.debit({ ...base, inputTokens: Number.MAX_SAFE_INTEGER, outputTokens: Number.MAX_SAFE_INTEGER, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 1e300 });
    await budget.debit({ ...base, inputTokens: 10, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 1 });
    await budget.settled();
    expect(errors).toEqual([]);
    const spent = await budget.spent();
    expect(spent.usd).toBeGreaterThan(1_000);
    expect(spent.tokens).toBeGreaterThan(1e12);
  });
});

