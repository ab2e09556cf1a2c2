import type { JobsOptions, Queue } from 'bullmq';
import type { ResumeDecisions, RunJob, RunJobData, SuspendedRunJob } from './run-job';

/** Settings of {@link resumeRun}. */
export interface ResumeRunOptions {
  /** BullMQ job options. Default: one attempt (the continuation runs approved tools: it is not run twice on its own). */
  readonly jobOptions?: JobsOptions;
}

const DEFAULT_JOB_OPTIONS: JobsOptions = Object.freeze({ attempts: 1 });

/**
 * Enqueues the continuation of a suspended run: a job that suspended completes with a summary
 * whose `status` is `suspended`; give its `suspended` (after any JSON round trip) and the
 * decisions about its `pendingApprovals`. Any worker running the agent (with the same `stateKey`)
 * resumes it with `agent.resume()`: the state is checked there (signature, agent, decisions) and
 * the job fails for good when it is refused. The job id is made of the suspension, so resuming
 * one state twice while its job waits, runs or completed adds one job; a job of it that failed
 * (its worker was killed, say) is replaced by a new one, and the agent decides: a resume killed
 * after its claim and before its first checkpoint is taken over, a state the run went on from is
 * refused (`already-resumed`), so the approved calls never run twice. The job's result is the run's summary: it
 * may suspend again. The job is typed by the suspended run's output (`SuspendedRunJob<T>` gives `RunJob<T>`).
 * @throws {TypeError} when `suspended` is not a suspended job's `suspended` value.
 */
export async function resumeRun<T = unknown>(queue: Queue, suspended: SuspendedRunJob<T>, decisions: ResumeDecisions, options: ResumeRunOptions = {}): Promise<RunJob<T>> {
  const { agent, state, tenant } = (suspended ?? {}) as Partial<SuspendedRunJob<T>>;
  const suspensionId: unknown = (state as { suspensionId?: unknown } | undefined)?.suspensionId;
  if (typeof agent !== 'string' || agent === '' || typeof state !== 'object' || state === null || typeof suspensionId !== 'string' || !/^[0-9A-Za-z-]{1,64}$/.test(suspensionId)) {
    throw new TypeError("resumeRun: give the `suspended` value of a suspended job's summary ({ agent, state })");
  }
  const data: RunJobData = {
    agent,
    input: '',
    resume: { state, decisions },
    ...(tenant === undefined ? {} : { tenant }),
  };
  const jobOptions: JobsOptions = { ...DEFAULT_JOB_OPTIONS, ...options.jobOptions, jobId: `resume-${suspensionId}` };
  const job = await queue.add(agent, data, jobOptions);
  if (!(await job.isFailed())) return job as RunJob<T>;
  // BullMQ returns a job id's earlier job as it is: one that failed (its worker killed after it
  // claimed the suspension, then failed as stalled) would never run again. It is replaced; the
  // agent decides (the claim of a resume that never began is taken over; a state spent is refused).
  await job.remove().catch(() => undefined);
  return (await queue.add(agent, data, jobOptions)) as RunJob<T>;
}
