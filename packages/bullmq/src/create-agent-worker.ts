import { type ConnectionOptions, Worker, type WorkerOptions } from 'bullmq';
import { agentRunner } from './agent-runner';
import { listenForCancellations } from './cancel-listener';
import type { RunJobData, RunJobSummary, WorkerAgents } from './run-job';
import { runJobProcessor } from './run-job-processor';
import type { StreamWriter } from './run-stream-writer';
import { refuseSharedIdentities, sharedAgentIds } from './shared-agent-ids';

/** Settings of {@link createAgentWorker}. */
export interface AgentWorkerOptions<A extends WorkerAgents = WorkerAgents> {
  /** How the worker reaches Redis: an ioredis client or its options (BullMQ's `connection`). */
  readonly connection: ConnectionOptions;
  /** The queue's name. */
  readonly queue: string;
  /**
   * The agents this worker runs, by the name jobs give: built agents, or builders it builds.
   * Export `typeof agents` to the enqueuers: `agentQueue<typeof agents>(queue)` types each job's result.
   */
  readonly agents: A;
  /** Jobs run at once by this worker. Default 1. */
  readonly concurrency?: number;
  /** Milliseconds one run may take (the run's `timeoutMs`). Default: no limit. */
  readonly runTimeoutMs?: number;
  /** Further BullMQ worker options (`lockDuration`, `stalledInterval`, `maxStalledCount`, `prefix`…). */
  readonly workerOptions?: Omit<WorkerOptions, 'connection' | 'concurrency' | 'autorun'>;
}

/** A running agent worker. */
export interface AgentWorker {
  readonly worker: Worker<RunJobData, RunJobSummary>;
  /** Stops taking jobs, waits for the running ones (unless `force`), and closes its connections. */
  close(force?: boolean): Promise<void>;
}

/**
 * A BullMQ worker that runs agents. Each job is one run: its run id is made of the queue's
 * prefix and name, the job id and a random key the job got when it was enqueued, so `redisMemory`
 * stores one exchange per job — a job run again (a retry, a stalled job whose worker crashed)
 * replaces its own, and a job id used again after the job was removed is a new turn. Progress
 * counts the run's steps, retries, tool re-asks and tool results, sent in order; a job enqueued
 * with `stream: true` runs with `agent.stream()` and its parts go to a Redis stream the enqueuer
 * reads (`agentQueue(…).stream(job)`); the return value is a JSON summary of the run;
 * `cancelRun` aborts the run through its signal. A failure fails the job with its kind, and
 * BullMQ retries it only when it is transient. A durable agent's job (`.durable(store)`) started
 * again (a stalled job whose worker was killed, handed over by BullMQ, or a retry) continues
 * from its run's last checkpoint with `agent.recover()`: no model call or tool effect is
 * repeated, and a `once` call the crash interrupted suspends the run as an unknown outcome.
 * @throws {AgentConfigurationError} (setting `agents`) when two agents have the same id: one
 *   could resume the other's suspended states.
 */
export function createAgentWorker<A extends WorkerAgents>(options: AgentWorkerOptions<A>): AgentWorker {
  const { connection, queue, agents, concurrency = 1, runTimeoutMs, workerOptions = {} } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`createAgentWorker: concurrency must be a whole number >= 1, got ${concurrency}`);
  if (Object.keys(agents).length === 0) throw new TypeError('createAgentWorker: give at least one agent');
  const runners = new Map(Object.entries(agents).map(([name, agent]) => [name, agentRunner(agent)]));
  // Two names of one agent id could resume each other's states: refused here, before any job.
  try {
    refuseSharedIdentities(runners);
  } catch (error) {
    for (const runner of runners.values()) runner.detach();
    throw error;
  }
  // A declared id equal to another agent's derived one is seen only by the ids themselves: such a name resumes nothing.
  let shared: Promise<ReadonlyMap<string, string>> | undefined;
  const prefix = workerOptions.prefix ?? 'bull';
  const processor = runJobProcessor({
    queue,
    prefix,
    runners,
    runTimeoutMs,
    sharedIds: () => (shared ??= sharedAgentIds(runners)),
    streamClient: async () => (await worker.client) as unknown as StreamWriter,
  });

  // Started once it listens for cancellations: a job it takes can always be cancelled.
  const worker = new Worker<RunJobData, RunJobSummary>(queue, processor, { ...workerOptions, connection, concurrency, autorun: false });
  let closing = false;
  // Cancellations, from any process, reach the worker that runs the job.
  const subscriber = listenForCancellations(worker, prefix, queue);
  // Without a subscription (Redis refused it) the worker still runs: jobs go on, cancellations of running ones are lost.
  void subscriber
    .catch(() => undefined)
    .then(() => (closing ? undefined : worker.run()))
    .catch(() => undefined);
  return {
    worker,
    async close(force = false) {
      closing = true;
      await worker.close(force);
      for (const runner of runners.values()) runner.detach();
      const listener = await subscriber.catch(() => undefined);
      listener?.disconnect();
    },
  };
}
