import type { AgentStreamPart, RunResult } from '@keel/core';
import { type Job, UnrecoverableError } from 'bullmq';
import type { AgentRunner, RunReporting } from './agent-runner';
import { jobFailure } from './job-failure';
import { jobSummary } from './job-summary';
import { progressReporter } from './progress-reporter';
import { isRunJobData, type RunJobData, type RunJobSummary, runIdOf, runKeyOf } from './run-job';
import { runStreamKey, type RunStreamPart } from './run-stream';
import { type RunStreamWriter, runStreamWriter, type StreamWriter } from './run-stream-writer';

/** What a worker's job processor needs to run its jobs. */
export interface RunJobProcessorOptions {
  /** The queue's name and prefix, which make each job's run id and stream key. */
  readonly queue: string;
  readonly prefix: string;
  /** The runner of each agent, by the name jobs give. */
  readonly runners: ReadonlyMap<string, AgentRunner>;
  /** Milliseconds one run may take. */
  readonly runTimeoutMs: number | undefined;
  /** For each agent name whose agent id another name shares, one such other name. */
  readonly sharedIds: () => Promise<ReadonlyMap<string, string>>;
  /** The connection a streamed job's parts are written with. */
  readonly streamClient: () => Promise<StreamWriter>;
}

/** A BullMQ processor of agent-run jobs. */
export type RunJobProcessor = (job: Job<RunJobData, RunJobSummary>, token?: string, signal?: AbortSignal) => Promise<RunJobSummary>;

/**
 * The processor of a worker's jobs: each job is one run (continued from its durable checkpoint
 * when the job was started before, or from its suspended state when it resumes one), its
 * progress reported on the job, its parts streamed when the job asks for it, and its summary the
 * job's return value. A failure fails the job with its kind (see `jobFailure`).
 */
export function runJobProcessor(options: RunJobProcessorOptions): RunJobProcessor {
  const { queue, prefix, runners, runTimeoutMs, sharedIds, streamClient } = options;
  return async (job, _token, signal) => {
    if (!isRunJobData(job.data)) throw new UnrecoverableError('bad-request: the job data is not an agent run (use enqueueRun)');
    const { agent: name, input, conversationId, tenant, resume } = job.data;
    const runner = runners.get(name);
    if (!runner) throw new UnrecoverableError(`bad-request: this worker has no agent named "${name}"`);
    // A continuation keeps the suspended run's id (its exchange in memory is replaced, never added twice).
    const runId = resume && typeof resume.state.runId === 'string' ? resume.state.runId : runIdOf(job, queue, prefix);
    const stream = job.data.stream === true ? runStreamWriter(await streamClient(), runStreamKey(prefix, queue, String(job.id), runKeyOf(job))) : undefined;
    stream?.write({ type: 'attempt-start', attempt: job.attemptsStarted > 0 ? job.attemptsStarted : job.attemptsMade + 1 });
    const progress = progressReporter(job);
    if (resume) {
      const other = (await sharedIds()).get(name);
      if (other !== undefined) throw new UnrecoverableError(`other-agent: the agents "${name}" and "${other}" have the same id, so one could resume the other's states; give each its own id (Agent.create({ id }))`);
    }
    const continuation = { ...(signal ? { signal } : {}), ...(runTimeoutMs === undefined ? {} : { timeoutMs: runTimeoutMs }), ...(tenant === undefined ? {} : { tenant }) };
    const { onProgress } = progress;
    const run = async (): Promise<RunResult<unknown>> => {
      // A job started before (its worker was killed and the stalled job handed over, or a retry):
      // a durable agent's run goes on from its last checkpoint, repeating no model call or tool effect.
      const recovered = job.attemptsStarted > 1 ? await runner.recover(runId, continuation, { onProgress }) : undefined;
      // A resume whose earlier attempt ended before the resumed run's first checkpoint finds the
      // run still suspended on this very state: it resumes it (the agent takes the claim over).
      if (recovered && !(resume && recovered.status === 'suspended' && recovered.state.suspensionId === resume.state.suspensionId)) return recovered;
      if (resume) return runner.resume(resume, continuation, { onProgress });
      const runOptions = { runId, ...(tenant === undefined ? {} : { tenant }), ...(signal ? { signal } : {}), ...(conversationId === undefined ? {} : { conversationId }), ...(runTimeoutMs === undefined ? {} : { timeoutMs: runTimeoutMs }) };
      return runner.run(input, runOptions, reportingOf(onProgress, stream));
    };
    try {
      const result = await run();
      await progress.settled();
      const summary = jobSummary(result, name, job.data);
      await stream?.end({ type: 'result', summary });
      return summary;
    } catch (error) {
      await progress.settled();
      const failure = jobFailure(error, signal?.aborted === true);
      const retrying = !(failure instanceof UnrecoverableError) && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
      await stream?.end({ type: 'failed', reason: failure.message, retrying });
      throw failure;
    }
  };
}

/** How a new run reports: its progress, and each of its parts when the job is streamed. */
function reportingOf(onProgress: RunReporting['onProgress'], stream: RunStreamWriter | undefined): RunReporting {
  return stream ? { onProgress, onPart: (part: AgentStreamPart<unknown>) => stream.write(part as RunStreamPart<unknown>) } : { onProgress };
}
