import type { Message } from '@keel/core';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { seededRandom, startedWorkers } from '../../../redis/src/testing/started-workers';
import { startWorkerProcess, type WorkerProcess } from '../../../redis/src/testing/worker-process';
import { postgresMemory } from '../memory/postgres-memory';
import { counted, createEffectTables, refundsAgent } from '../testing/refunds-agent';
import { usePostgresServer } from '../testing/use-postgres-server';

const postgres = usePostgresServer();
const started = startedWorkers();

const RUNS = 20;
const KILLS = 3;
const ORDERS = Array.from({ length: RUNS }, (_, order) => String(order));

/** A line a refunds process printed. */
type Report = { event?: string; order?: string; status?: string; name?: string; problem?: string };
const is = (event: string) => (message: unknown) => (message as Report).event === event;

function refundsProcess(schema: string, mode: 'work' | 'recover', concurrency: number, orders: readonly string[], goAt = 0): WorkerProcess {
  const process = startWorkerProcess(new URL('../testing/refunds-process.ts', import.meta.url), [postgres.server.url, schema, mode, String(concurrency), String(goAt), ...orders]);
  started.push(process);
  return process;
}

/**
 * What every run must show once it ended, whatever crashed on the way: the credit applied exactly
 * once, the email sent at most once; complete, or suspended on the email as an unknown outcome,
 * which is then settled (sent when it was counted, run again otherwise); then each run is
 * complete, its email sent once, and its conversation holds its one exchange.
 */
async function checkEveryRun(pool: pg.Pool, schema: string, orders: readonly string[]): Promise<{ complete: number; suspended: number }> {
  const agent = refundsAgent(pool, schema);
  const memory = postgresMemory({ pool, schema });
  let suspended = 0;
  for (const order of orders) {
    expect({ order, applied: await counted(pool, schema, `credit-applied:${order}`) }).toEqual({ order, applied: 1 });
    const emails = await counted(pool, schema, `email:${order}`);
    expect(emails).toBeLessThanOrEqual(1);
    const result = await agent.recover(`run-${order}`);
    if (result.status === 'suspended') {
      suspended++;
      expect(result.unknownOutcomes.map((call) => call.toolName)).toEqual(['email']);
      expect(result.pendingApprovals).toEqual([]);
      const id = result.unknownOutcomes[0]?.toolCallId as string;
      const settled = await agent.resume(result.state, emails === 1 ? { outcomes: [{ id, result: 'sent' }] } : { retry: [id] });
      expect(settled.status).toBe('complete');
    } else {
      expect(result.status).toBe('complete');
      expect(emails).toBe(1);
    }
    expect(await counted(pool, schema, `email:${order}`)).toBe(1);
    expect(await counted(pool, schema, `credit-applied:${order}`)).toBe(1);
    const kept: readonly Message[] = await memory.load(`customer-${order}`);
    expect({ order, roles: kept.map((message) => message.role) }).toEqual({ order, roles: ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'] });
  }
  return { complete: orders.length - suspended, suspended };
}

describe('postgresRunStore: processes killed with SIGKILL in the middle of durable runs', () => {
  it('20 runs, processes killed at random points, each run continued on another: every credit applied once, no email twice, no turn lost or doubled', async () => {
    const schema = postgres.schema();
    const pool = postgres.pool();
    await createEffectTables(pool, schema);
    const seed = Number(process.env.KEEL_CRASH_SEED ?? Date.now() % 1_000_000);
    const next = seededRandom(seed);
    const killedAfter: string[] = [];
    const interrupted = new Set<string>();
    for (let kill = 0; kill < KILLS; kill++) {
      const doomed = refundsProcess(schema, 'work', 4, ORDERS);
      const completions = Math.floor(next() * 8);
      const reached = doomed.waitFor(() => doomed.messages.filter(is('completed')).length >= completions && doomed.messages.some(is('active')), 60_000);
      await Promise.race([reached, doomed.waitFor(is('done'), 60_000)]);
      if (doomed.messages.some(is('done'))) break;
      const afterMs = Math.floor(next() * 150);
      await new Promise((resolve) => setTimeout(resolve, afterMs));
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      killedAfter.push(`${completions} runs + ${afterMs} ms`);
      const ended = new Set(doomed.messages.filter((message) => is('completed')(message) || is('failed')(message)).map((message) => (message as Report).order));
      for (const message of doomed.messages.filter(is('active'))) if (!ended.has((message as Report).order)) interrupted.add((message as Report).order as string);
    }
    // Another process continues every run the killed ones left.
    const last = refundsProcess(schema, 'work', 4, ORDERS);
    await last.waitFor(is('done'), 90_000);
    expect(last.messages.filter(is('failed'))).toEqual([]);

    const { complete, suspended } = await checkEveryRun(pool, schema, ORDERS);
    let creditsRunAgain = 0;
    for (const order of ORDERS) creditsRunAgain += Math.max(0, (await counted(pool, schema, `credit-runs:${order}`)) - 1);
    console.log(JSON.stringify({ seed, runs: RUNS, kills: killedAfter.length, killedAfter, interrupted: interrupted.size, complete, suspendedOnUnknownOutcome: suspended, idempotentCallsRunAgain: creditsRunAgain }));
    // Not vacuous: the kills interrupted runs in flight.
    expect(interrupted.size).toBeGreaterThan(0);
  }, 180_000);

  it('two processes recovering the same runs at once: one owner at a time (the other fenced or told the run is busy), no effect twice', async () => {
    const schema = postgres.schema();
    const pool = postgres.pool();
    await createEffectTables(pool, schema);
    const orders = ORDERS.slice(0, 8);
    // Each run credits, then fails for good (the key was revoked): its journal is left for recover.
    const failing = refundsAgent(pool, schema, { failAfterCredit: true, maxPauseMs: 0 });
    for (const order of orders) await expect(failing.run(`refund order ${order}`, { runId: `run-${order}`, conversationId: `customer-${order}` })).rejects.toThrow(/401/);

    const goAt = Date.now() + 3_000;
    const pair = [refundsProcess(schema, 'recover', 1, orders, goAt), refundsProcess(schema, 'recover', 1, orders, goAt)];
    await Promise.all(pair.map((process) => process.waitFor(is('done'), 90_000)));
    const outcomes = pair.flatMap((process) => process.messages.filter((message) => is('completed')(message) || is('failed')(message)) as Report[]);
    // Each process gave each run an answer; a refusal is only ever the fence or the busy journal, never a run made twice.
    expect(outcomes).toHaveLength(2 * orders.length);
    const refusals = outcomes.filter((outcome) => outcome.event === 'failed');
    for (const refusal of refusals) expect(refusal.name === 'StaleRunOwnerError' || (refusal.name === 'DurableRunError' && refusal.problem === 'busy')).toBe(true);
    for (const order of orders) expect(outcomes.some((outcome) => outcome.order === order && outcome.event === 'completed')).toBe(true);

    const { complete, suspended } = await checkEveryRun(pool, schema, orders);
    for (const order of orders) expect(await counted(pool, schema, `credit-runs:${order}`)).toBe(1);
    console.log(JSON.stringify({ runs: orders.length, fenced: refusals.filter((refusal) => refusal.name === 'StaleRunOwnerError').length, busy: refusals.filter((refusal) => refusal.problem === 'busy').length, complete, suspendedOnUnknownOutcome: suspended }));
    // Not vacuous: the two processes met on some runs.
    expect(refusals.length + suspended).toBeGreaterThan(0);
  }, 180_000);
});
