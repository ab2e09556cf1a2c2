/**
 * A process of the crash tests: the refunds agent of refunds-agent.ts on PostgreSQL, continuing
 * runs `run-<order>`, printing a JSON line when each starts and ends.
 * Arguments: url schema mode concurrency goAt order...
 *   mode `work`: each run is recovered, or started when the store has none of it (waiting while
 *   another start of it is under way), as a job queue's worker would;
 *   mode `recover`: each run is recovered once, and what happened reported (an error included).
 * goAt: the epoch milliseconds to begin at, so two processes begin at once.
 */
import { DurableRunError, type RunResult } from '@keel/core';
import pg from 'pg';
import { refundsAgent } from './refunds-agent';

const [url, schema = 'keel', mode, concurrency = '1', goAt = '0', ...orders] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10 });
pool.on('error', () => undefined);
const agent = refundsAgent(pool, schema);
const say = (message: object) => process.stdout.write(`${JSON.stringify({ pid: process.pid, ...message })}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Recovers run `order`, or starts it when the store has none of it, as a job queue's worker would. */
async function work(order: string): Promise<RunResult<unknown>> {
  const runId = `run-${order}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      try {
        return await agent.recover(runId);
      } catch (error) {
        if (!(DurableRunError.isInstance(error) && error.problem === 'not-found')) throw error;
      }
      return await agent.run(`refund order ${order}`, { runId, conversationId: `customer-${order}` });
    } catch (error) {
      // Another start of the run is under way (a killed process's claim, held for a while), or another process continues it.
      const waits = DurableRunError.isInstance(error) && (error.problem === 'exists' || error.problem === 'busy');
      if (!waits || Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

say({ event: 'ready' });
await sleep(Math.max(0, Number(goAt) - Date.now()));
let next = 0;
async function lane(): Promise<void> {
  while (next < orders.length) {
    const order = orders[next++] as string;
    say({ event: 'active', order });
    try {
      const result = mode === 'work' ? await work(order) : await agent.recover(`run-${order}`);
      say({ event: 'completed', order, status: result.status, unknown: result.status === 'suspended' ? result.unknownOutcomes.map((call) => call.toolCallId) : [] });
    } catch (error) {
      const { name, message, problem } = error as { name?: string; message?: string; problem?: string };
      say({ event: 'failed', order, name, problem, message });
    }
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, lane));
say({ event: 'done' });
await pool.end();
