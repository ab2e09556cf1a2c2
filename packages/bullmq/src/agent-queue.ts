import { Job, type Queue, QueueEvents } from 'bullmq';
import { enqueueRun, type EnqueueRunOptions } from './enqueue-run';
import { type AgentOutput, type RunJob, type RunJobData, type RunJobSummary, runKeyOf, type WorkerAgents } from './run-job';
import { runStreamKey, type RunStreamPart } from './run-stream';
import { lastPartOf, readRunStream, type StreamReader } from './run-stream-reader';

/** A queue of agent runs, typed by the workers' agents map. */
export interface AgentQueue<A extends WorkerAgents> {
  readonly queue: Queue;
  /** Adds a run of agent `agent`; the job's result is typed by that agent's output. */
  enqueue<N extends keyof A & string>(options: EnqueueRunOptions<N>): Promise<RunJob<AgentOutput<A[N]>>>;
  /**
   * Waits until the job has finished and returns its summary (`summary.value` typed), or rejects
   * with the job's failure reason once it failed for good. Works for a job removed when it
   * completed (`removeOnComplete`): a job enqueued here is watched from the moment it is added,
   * and a streamed job's result is read back from its stream. Default timeout: none.
   */
  result<T>(job: RunJob<T>, options?: { readonly timeoutMs?: number }): Promise<RunJobSummary<T>>;
  /**
   * The job's run as it happens: its stream parts when it was enqueued with `stream: true`, then
   * its `result` (or `failed`) part; for a job enqueued without streaming, that last part only.
   * Parts already written are read from the start, so a stream opened late misses nothing (parts
   * are kept an hour after the run). Ends after `result`, or after `failed` when no retry follows;
   * stops with an `AbortedError` when `signal` aborts.
   */
  stream<T>(job: RunJob<T>, options?: { readonly signal?: AbortSignal }): AsyncIterable<RunStreamPart<T>>;
  /** Closes the connections this object opened (not the queue's). */
  close(): Promise<void>;
}

/** How a job ended, read from the job itself: its last part, `undefined` while it runs, `'gone'` when it no longer exists. */
async function jobEnd<T>(queue: Queue, id: string): Promise<RunStreamPart<T> | 'gone' | undefined> {
  const job = (await Job.fromId(queue, id)) as RunJob<T> | undefined;
  if (!job) return 'gone';
  const state = await job.getState();
  if (state === 'completed') return { type: 'result', summary: job.returnvalue };
  if (state === 'failed') return { type: 'failed', reason: job.failedReason, retrying: false };
  return undefined;
}

/** `outcome`, or a rejection naming the job once `timeoutMs` have passed first. */
async function withTimeout<T>(outcome: Promise<T>, timeoutMs: number, jobId: string | undefined): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Job ${jobId} did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([outcome, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Types a BullMQ queue of agent runs by the workers' agents map (`typeof agents`, which an
 * enqueuer can import as a type only): `enqueue` checks the agent's name and types the job's
 * result by that agent's output, `result` waits for it, `stream` reads the run as it happens.
 */
export function agentQueue<A extends WorkerAgents>(queue: Queue): AgentQueue<A> {
  const prefix = queue.opts.prefix ?? 'bull';
  let events: QueueEvents | undefined;
  const readers = new Set<StreamReader>();
  /** The outcome of each job enqueued here, watched from the moment it was added. */
  const outcomes = new WeakMap<object, Promise<RunJobSummary<unknown>>>();
  const ready = async (): Promise<QueueEvents> => {
    events ??= new QueueEvents(queue.name, { connection: queue.opts.connection, ...(queue.opts.prefix === undefined ? {} : { prefix: queue.opts.prefix }) });
    await events.waitUntilReady();
    return events;
  };
  const keyOf = (job: RunJob<unknown>) => runStreamKey(prefix, queue.name, String(job.id), runKeyOf(job as { data: RunJobData; timestamp: number }));

  return {
    queue,
    async enqueue<N extends keyof A & string>(options: EnqueueRunOptions<N>) {
      const watching = await ready();
      const job = await enqueueRun<AgentOutput<A[N]>>(queue, options);
      // Watched before the job can finish, so its outcome is known even if it is removed on completion.
      const outcome = job.waitUntilFinished(watching);
      outcome.catch(() => undefined);
      outcomes.set(job, outcome);
      return job;
    },

    async result<T>(job: RunJob<T>, options: { readonly timeoutMs?: number } = {}) {
      let outcome = outcomes.get(job) as Promise<RunJobSummary<T>> | undefined;
      if (!outcome) {
        const terminal = job.data.stream === true ? await lastPartOf<T>((await queue.client) as unknown as StreamReader, keyOf(job)) : undefined;
        if (terminal?.type === 'result') return terminal.summary;
        if (terminal?.type === 'failed') throw new Error(terminal.reason);
        outcome = job.waitUntilFinished(await ready());
      }
      return options.timeoutMs === undefined ? outcome : withTimeout(outcome, options.timeoutMs, job.id);
    },

    async *stream<T>(job: RunJob<T>, options: { readonly signal?: AbortSignal } = {}) {
      const { signal } = options;
      const id = String(job.id);
      const key = keyOf(job);
      const reader = (await queue.client).duplicate() as unknown as StreamReader;
      readers.add(reader);
      const onAbort = () => reader.disconnect();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        yield* readRunStream<T>(reader, key, () => jobEnd<T>(queue, id), signal);
      } finally {
        signal?.removeEventListener('abort', onAbort);
        readers.delete(reader);
        reader.disconnect();
      }
    },

    async close() {
      for (const reader of readers) reader.disconnect();
      await events?.close();
    },
  };
}
