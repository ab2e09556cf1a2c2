import { type ConnectionOptions, type Job, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { agentRunner, type RunProgressKind, type WorkerAgent } from './agent-runner';
import { cancelChannel } from './cancel-channel';
import { jobFailure } from './job-failure';
import { isRunJobData, type RunJobData, type RunJobProgress, type RunJobSummary } from './run-job';

/** Settings of {@link createAgentWorker}. */
export interface AgentWorkerOptions {
  /** How the worker reaches Redis: an ioredis client or its options (BullMQ's `connection`). */
  readonly connection: ConnectionOptions;
  /** The queue's name. */
  readonly queue: string;
  /** The agents this worker runs, by the name jobs give: built agents, or builders it builds. */
  readonly agents: Readonly<Record<string, WorkerAgent>>;
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
 * A BullMQ worker that runs agents. Each job is one run: its id is the run's id (so
 * `redisMemory` stores one exchange per job, even when a job runs again after its worker
 * crashed and BullMQ's stalled-job recovery hands it to another); progress is reported from the
 * run's steps, retries and tool results; the return value is a JSON summary of the run;
 * `cancelRun` aborts the run through its signal. A failure fails the job with its kind, and
 * BullMQ retries it only when it is transient.
 */
export function createAgentWorker(options: AgentWorkerOptions): AgentWorker {
  const { connection, queue, agents, concurrency = 1, runTimeoutMs, workerOptions = {} } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`createAgentWorker: concurrency must be a whole number >= 1, got ${concurrency}`);
  if (Object.keys(agents).length === 0) throw new TypeError('createAgentWorker: give at least one agent');
  const runners = new Map(Object.entries(agents).map(([name, agent]) => [name, agentRunner(agent)]));

  const processor = async (job: Job<RunJobData, RunJobSummary>, _token?: string, signal?: AbortSignal): Promise<RunJobSummary> => {
    if (!isRunJobData(job.data)) throw new UnrecoverableError('bad-request: the job data is not an agent run (use enqueueRun)');
    const { agent: name, input, conversationId, tenant } = job.data;
    const runner = runners.get(name);
    if (!runner) throw new UnrecoverableError(`bad-request: this worker has no agent named "${name}"`);
    const runId = `${queue}:${job.id}`;
    let progress: RunJobProgress = { step: 0, retries: 0, toolCalls: 0, last: 'start' };
    // Progress updates go out one at a time, never holding the run; a failed update is dropped.
    let reporting: Promise<unknown> = Promise.resolve();
    const report = (next: RunJobProgress) => {
      progress = next;
      reporting = reporting.then(() => job.updateProgress({ ...progress })).catch(() => undefined);
    };
    const onProgress = (kind: RunProgressKind, step: number) => {
      if (kind === 'step-start') report({ ...progress, step, last: kind });
      else if (kind === 'retry') report({ ...progress, retries: progress.retries + 1, last: kind });
      else if (kind === 'tool-result') report({ ...progress, toolCalls: progress.toolCalls + 1, last: kind });
      else report({ ...progress, last: kind });
    };
    const runOptions = {
      runId,
      ...(signal ? { signal } : {}),
      ...(conversationId === undefined ? {} : { conversationId }),
      ...(runTimeoutMs === undefined ? {} : { timeoutMs: runTimeoutMs }),
    };
    try {
      const result = await runner.run(input, runOptions, onProgress);
      await reporting;
      return {
        runId: result.runId,
        value: result.value,
        text: result.text,
        provenance: result.provenance,
        usage: result.usage,
        attempts: result.attempts.length,
        steps: result.steps.length,
        finishReason: result.finishReason,
        durationMs: result.durationMs,
        ...(tenant === undefined ? {} : { tenant }),
        ...(conversationId === undefined ? {} : { conversationId }),
      };
    } catch (error) {
      await reporting;
      throw jobFailure(error, signal?.aborted === true);
    }
  };

  const worker = new Worker<RunJobData, RunJobSummary>(queue, processor, { ...workerOptions, connection, concurrency });
  // Cancellations, from any process, reach the worker that runs the job.
  const subscriber = worker.client.then(async (client) => {
    const listener = (client as unknown as Redis).duplicate();
    listener.on('error', () => undefined);
    await listener.subscribe(cancelChannel(worker.opts.prefix ?? 'bull', queue));
    listener.on('message', (_channel, message) => {
      try {
        const { jobId, reason } = JSON.parse(message) as { jobId: string; reason?: string };
        worker.cancelJob(String(jobId), reason);
      } catch {
        // Not a cancellation: ignored.
      }
    });
    return listener;
  });
  subscriber.catch(() => undefined);
  return {
    worker,
    async close(force = false) {
      await worker.close(force);
      for (const runner of runners.values()) runner.detach();
      const listener = await subscriber.catch(() => undefined);
      listener?.disconnect();
    },
  };
}
