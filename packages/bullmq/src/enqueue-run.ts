import { randomUUID } from 'node:crypto';
import type { RunInput } from '@keel/core';
import type { JobsOptions, Queue } from 'bullmq';
import type { RunJob, RunJobData } from './run-job';

/** What {@link enqueueRun} takes. */
export interface EnqueueRunOptions<N extends string = string> {
  /** The name of the agent to run, as the workers know it. */
  readonly agent: N;
  readonly input: RunInput;
  readonly conversationId?: string;
  readonly tenant?: string;
  /**
   * The job id: enqueueing the same id twice while the job exists adds one job (BullMQ
   * deduplicates by id). Once the job is removed (`removeOnComplete`), the id makes a new job
   * and a new turn: it never replaces the earlier job's exchange in memory.
   */
  readonly jobId?: string;
  /** Stream the run's parts to the enqueuer: read them with `agentQueue(…).stream(job)`. Default false. */
  readonly stream?: boolean;
  /**
   * BullMQ job options. Default: 3 attempts with exponential backoff from 1 s; only transient
   * failures use them (the worker fails the others for good).
   */
  readonly jobOptions?: JobsOptions;
}

const DEFAULT_JOB_OPTIONS: JobsOptions = Object.freeze({ attempts: 3, backoff: { type: 'exponential', delay: 1_000 } });

/**
 * Adds an agent run to a BullMQ queue; a worker made by `createAgentWorker` runs it. Give `T`, the
 * agent's output type, to type the job's result — or use `agentQueue<typeof agents>(queue)`,
 * which infers it from the agent's name.
 */
export async function enqueueRun<T = unknown>(queue: Queue, options: EnqueueRunOptions): Promise<RunJob<T>> {
  if (typeof options.agent !== 'string' || options.agent === '') throw new TypeError('enqueueRun: agent must be the name of an agent');
  const input: unknown = options.input;
  const isMessage = typeof input === 'object' && input !== null && !Array.isArray(input) && typeof (input as { message?: unknown }).message === 'string';
  if (typeof input !== 'string' && !Array.isArray(input) && !isMessage) throw new TypeError('enqueueRun: input must be a string, { message }, or an array of messages');
  if (options.stream !== undefined && typeof options.stream !== 'boolean') throw new TypeError('enqueueRun: stream must be a boolean');
  const data: RunJobData = {
    agent: options.agent,
    input: options.input,
    // New for every job added, kept by the job: its runs share one run id, a later job of the same id gets another.
    runKey: randomUUID(),
    ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
    ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
    ...(options.stream === true ? { stream: true } : {}),
  };
  const jobOptions: JobsOptions = { ...DEFAULT_JOB_OPTIONS, ...options.jobOptions, ...(options.jobId === undefined ? {} : { jobId: options.jobId }) };
  return (await queue.add(options.agent, data, jobOptions)) as RunJob<T>;
}
