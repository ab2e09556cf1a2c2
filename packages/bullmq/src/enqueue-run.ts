import type { RunInput } from '@keel/core';
import type { Job, JobsOptions, Queue } from 'bullmq';
import type { RunJobData, RunJobSummary } from './run-job';

/** What {@link enqueueRun} takes. */
export interface EnqueueRunOptions {
  /** The name of the agent to run, as the workers know it. */
  readonly agent: string;
  readonly input: RunInput;
  readonly conversationId?: string;
  readonly tenant?: string;
  /** The job id: enqueueing the same id twice adds one job (BullMQ deduplicates by id). */
  readonly jobId?: string;
  /**
   * BullMQ job options. Default: 3 attempts with exponential backoff from 1 s; only transient
   * failures use them (the worker fails the others for good).
   */
  readonly jobOptions?: JobsOptions;
}

const DEFAULT_JOB_OPTIONS: JobsOptions = Object.freeze({ attempts: 3, backoff: { type: 'exponential', delay: 1_000 } });

/** Adds an agent run to a BullMQ queue; a worker made by `createAgentWorker` runs it. */
export async function enqueueRun(queue: Queue, options: EnqueueRunOptions): Promise<Job<RunJobData, RunJobSummary>> {
  if (typeof options.agent !== 'string' || options.agent === '') throw new TypeError('enqueueRun: agent must be the name of an agent');
  const input: unknown = options.input;
  const isMessage = typeof input === 'object' && input !== null && !Array.isArray(input) && typeof (input as { message?: unknown }).message === 'string';
  if (typeof input !== 'string' && !Array.isArray(input) && !isMessage) throw new TypeError('enqueueRun: input must be a string, { message }, or an array of messages');
  const data: RunJobData = {
    agent: options.agent,
    input: options.input,
    ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
    ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
  };
  const jobOptions: JobsOptions = { ...DEFAULT_JOB_OPTIONS, ...options.jobOptions, ...(options.jobId === undefined ? {} : { jobId: options.jobId }) };
  return (await queue.add(options.agent, data, jobOptions)) as Job<RunJobData, RunJobSummary>;
}
