/**
 * A worker process for the approval tests: runs the `payments` agent of approval-agent.ts for
 * jobs of `queue`, printing a JSON line when ready and when a job completes or fails.
 * Arguments: port queue answerDelayMs [die-after-claim]. With `die-after-claim` the process kills
 * itself (SIGKILL) the moment a resume has claimed its suspension, before the resume's first
 * checkpoint; its lock is short, so the job is handed over within a second.
 */
import { Redis } from 'ioredis';
import { createAgentWorker } from '../create-agent-worker';
import { reportWorker } from './report-worker';
import { approvalAgent } from './approval-agent';

const [port, queue, answerDelayMs, mode] = process.argv.slice(2);
const redis = new Redis(Number(port), '127.0.0.1', { maxRetriesPerRequest: null });
const dies = mode === 'die-after-claim';
const { agent } = approvalAgent(redis, Number(answerDelayMs ?? 0), dies ? () => process.kill(process.pid, 'SIGKILL') : undefined);
const { worker } = createAgentWorker({
  connection: { host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: null },
  queue: String(queue),
  agents: { payments: agent },
  ...(dies ? { workerOptions: { lockDuration: 1_000, stalledInterval: 250 } } : {}),
});
await reportWorker(worker);
