import type { AgentStreamPart } from '@keel/core';
import { type ConnectionOptions, type Job, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { type AgentRunner, agentRunner, type RunProgressKind } from './agent-runner';
import { cancelChannel } from './cancel-channel';
import { jobFailure } from './job-failure';
import { isRunJobData, type RunJobData, type RunJobProgress, type RunJobSummary, runIdOf, runKeyOf, type WorkerAgents } from './run-job';
import { runStreamKey, type RunStreamPart, STREAM_MAX_PARTS, STREAM_TTL_SECONDS } from './run-stream';

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

/** The part of ioredis a worker writes a run's stream with. */
interface StreamWriter {
  xadd(...args: (string | number)[]): Promise<unknown>;
  expire(key: string, seconds: number): Promise<unknown>;
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
 */
export function createAgentWorker<A extends WorkerAgents>(options: AgentWorkerOptions<A>): AgentWorker {
  const { connection, queue, agents, concurrency = 1, runTimeoutMs, workerOptions = {} } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`createAgentWorker: concurrency must be a whole number >= 1, got ${concurrency}`);
  if (Object.keys(agents).length === 0) throw new TypeError('createAgentWorker: give at least one agent');
  const runners = new Map(Object.entries(agents).map(([name, agent]) => [name, agentRunner(agent)]));
  // Names sharing one agent id could resume each other's states: such a name resumes nothing.
  let shared: Promise<ReadonlyMap<string, string>> | undefined;
  const sharedIds = () => (shared ??= sharedAgentIds(runners));
  const prefix = workerOptions.prefix ?? 'bull';

  /** Writes a job's parts, in order, to its stream; `end` waits for every write. */
  const streamOf = (client: StreamWriter, key: string) => {
    let last: Promise<unknown> = Promise.resolve();
    const write = (part: RunStreamPart<unknown>) => {
      // One connection keeps commands in order: the writes are pipelined, never awaited one by one.
      last = client.xadd(key, 'MAXLEN', '~', STREAM_MAX_PARTS, '*', 'part', JSON.stringify(part)).catch(() => undefined);
    };
    const end = async (part: RunStreamPart<unknown>) => {
      write(part);
      await last;
      await client.expire(key, STREAM_TTL_SECONDS).catch(() => undefined);
    };
    return { write, end };
  };

  const processor = async (job: Job<RunJobData, RunJobSummary>, _token?: string, signal?: AbortSignal): Promise<RunJobSummary> => {
    if (!isRunJobData(job.data)) throw new UnrecoverableError('bad-request: the job data is not an agent run (use enqueueRun)');
    const { agent: name, input, conversationId, tenant } = job.data;
    const runner = runners.get(name);
    if (!runner) throw new UnrecoverableError(`bad-request: this worker has no agent named "${name}"`);
    const resume = job.data.resume;
    // A continuation keeps the suspended run's id (its exchange in memory is replaced, never added twice).
    const runId = resume && typeof resume.state.runId === 'string' ? resume.state.runId : runIdOf(job, queue, prefix);
    const stream = job.data.stream === true ? streamOf((await worker.client) as unknown as StreamWriter, runStreamKey(prefix, queue, String(job.id), runKeyOf(job))) : undefined;
    stream?.write({ type: 'attempt-start', attempt: job.attemptsStarted > 0 ? job.attemptsStarted : job.attemptsMade + 1 });

    let progress: RunJobProgress = { step: 0, retries: 0, toolCalls: 0, toolReAsks: 0, events: 0, last: 'start' };
    // Each event's progress is a snapshot sent in order, one at a time, never holding the run; a failed update is dropped.
    let reporting: Promise<unknown> = Promise.resolve();
    const onProgress = (kind: RunProgressKind, step: number) => {
      const before = progress;
      const next: RunJobProgress = {
        step: kind === 'step-start' ? step : before.step,
        retries: before.retries + (kind === 'retry' ? 1 : 0),
        toolCalls: before.toolCalls + (kind === 'tool-result' ? 1 : 0),
        toolReAsks: before.toolReAsks + (kind === 'tool-re-ask' ? 1 : 0),
        events: before.events + 1,
        last: kind,
      };
      progress = next;
      reporting = reporting.then(() => job.updateProgress(next)).catch(() => undefined);
    };
    if (resume) {
      const other = (await sharedIds()).get(name);
      if (other !== undefined) throw new UnrecoverableError(`other-agent: the agents "${name}" and "${other}" have the same id, so one could resume the other's states; give each its own id (Agent.create({ id }))`);
    }
    const runOptions = {
      runId,
      ...(tenant === undefined ? {} : { tenant }),
      ...(signal ? { signal } : {}),
      ...(conversationId === undefined ? {} : { conversationId }),
      ...(runTimeoutMs === undefined ? {} : { timeoutMs: runTimeoutMs }),
    };
    const continuation = { ...(signal ? { signal } : {}), ...(runTimeoutMs === undefined ? {} : { timeoutMs: runTimeoutMs }), ...(tenant === undefined ? {} : { tenant }) };
    try {
      // A job started before (its worker was killed and the stalled job handed over, or a retry):
      // a durable agent's run goes on from its last checkpoint, repeating no model call or tool effect.
      const recovered = job.attemptsStarted > 1 ? await runner.recover(runId, continuation, { onProgress }) : undefined;
      const result =
        recovered ??
        (resume
          ? await runner.resume(resume, continuation, { onProgress })
          : await runner.run(input, runOptions, stream ? { onProgress, onPart: (part: AgentStreamPart<unknown>) => stream.write(part as RunStreamPart<unknown>) } : { onProgress }));
      await reporting;
      const base = {
        runId: result.runId,
        text: result.text,
        usage: result.usage,
        attempts: result.attempts.length,
        steps: result.steps.length,
        finishReason: result.finishReason,
        durationMs: result.durationMs,
        ...(tenant === undefined ? {} : { tenant }),
        ...(conversationId === undefined ? {} : { conversationId }),
      };
      const summary: RunJobSummary =
        result.status === 'suspended'
          ? {
              ...base,
              status: 'suspended',
              pendingApprovals: result.pendingApprovals,
              ...(result.unknownOutcomes.length === 0 ? {} : { unknownOutcomes: result.unknownOutcomes }),
              suspended: { agent: name, state: result.state, ...(tenant === undefined ? {} : { tenant }) },
            }
          : { ...base, status: 'complete', value: result.value, provenance: result.provenance };
      await stream?.end({ type: 'result', summary });
      return summary;
    } catch (error) {
      await reporting;
      const failure = jobFailure(error, signal?.aborted === true);
      const retrying = !(failure instanceof UnrecoverableError) && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
      await stream?.end({ type: 'failed', reason: failure.message, retrying });
      throw failure;
    }
  };

  // Started once it listens for cancellations: a job it takes can always be cancelled.
  const worker = new Worker<RunJobData, RunJobSummary>(queue, processor, { ...workerOptions, connection, concurrency, autorun: false });
  let closing = false;
  // Cancellations, from any process, reach the worker that runs the job.
  const subscriber = worker.client.then(async (client) => {
    const listener = (client as unknown as Redis).duplicate();
    listener.on('error', () => undefined);
    await listener.subscribe(cancelChannel(prefix, queue));
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

/** For each agent name whose agent id another name shares, one such other name. */
async function sharedAgentIds(runners: ReadonlyMap<string, AgentRunner>): Promise<ReadonlyMap<string, string>> {
  const byId = new Map<string, string[]>();
  for (const [name, runner] of runners) {
    const id = await runner.id();
    byId.set(id, [...(byId.get(id) ?? []), name]);
  }
  const shared = new Map<string, string>();
  for (const names of byId.values()) if (names.length > 1) for (const name of names) shared.set(name, names.find((other) => other !== name) as string);
  return shared;
}
