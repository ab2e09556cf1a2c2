import type { Agent, AgentBuilder, Message, RunInput, RunResult, RunStateSnapshot } from '@keel/core';

type SuspendedRunResult = Extract<RunResult<unknown>, { readonly status: 'suspended' }>;
import type { Job } from 'bullmq';

/** An agent as a worker takes it: built, or a builder the worker builds. */
export type WorkerAgent = Agent<unknown> | AgentBuilder<unknown>;

/** The agents a worker runs, by the name jobs give. */
export type WorkerAgents = Readonly<Record<string, WorkerAgent>>;

/** The output type of a worker agent (its `value`): inferred from an `Agent<T>` or `AgentBuilder<T>`. */
export type AgentOutput<A> = A extends Agent<infer T> ? T : A extends AgentBuilder<infer T> ? T : unknown;

/** The data of an agent-run job, as `enqueueRun` stores it. */
export interface RunJobData {
  /** The name of the agent to run, a key of the worker's `agents`. */
  readonly agent: string;
  readonly input: RunInput;
  readonly conversationId?: string;
  /** Who the run is for (reported back in the summary; use it in budget keys). */
  readonly tenant?: string;
  /**
   * A random id given when the job is enqueued. The run id is made of it, so a job id used again
   * (after the job was removed) is a new run, while the same job run again (a retry, a stalled
   * job) keeps its run id and replaces its own exchange in memory.
   */
  readonly runKey?: string;
  /** Whether the worker streams the run's parts to the enqueuer (`agentQueue(…).stream(job)`). */
  readonly stream?: boolean;
  /** Set by `resumeRun`: the job continues a suspended run (`input` is then unused). */
  readonly resume?: ResumeJob;
}

/** What a job continuing a suspended run carries: the run's state and the decisions about its pending calls. */
export interface ResumeJob {
  readonly state: RunStateSnapshot;
  readonly decisions: ResumeDecisions;
}

/** The decisions `agent.resume()` takes: `{ approve: [ids], reject: [{ id, reason }] }`. */
export type ResumeDecisions = Parameters<Agent<unknown>['resume']>[1];

/**
 * A suspended run as a job returns it: the agent's name, the run's signed state, and the tenant.
 * Give it, as it is (after any JSON round trip), to `resumeRun(queue, suspended, decisions)`.
 */
export interface SuspendedRunJob<T = unknown> {
  readonly agent: string;
  readonly state: RunStateSnapshot;
  readonly tenant?: string;
  /** Types only, never set: the agent's output type, so that `resumeRun` types the job it adds. */
  readonly '~output'?: T;
}

/** What every job summary holds, however the run ended. */
export interface RunJobSummaryBase {
  readonly runId: string;
  /** The final answer's text (empty for a suspended run). */
  readonly text: string;
  readonly usage: RunResult<unknown>['usage'];
  /** Model calls made, failed attempts and re-asks included. */
  readonly attempts: number;
  readonly steps: number;
  readonly finishReason: string;
  readonly durationMs: number;
  readonly tenant?: string;
  readonly conversationId?: string;
}

/** The summary of a run that has its final answer: `value` is the agent's output. */
export interface CompleteRunJobSummary<T = unknown> extends RunJobSummaryBase {
  readonly status: 'complete';
  readonly value: T;
  /** Whether `value` is the model's answer or a degraded one (`fallback`, `canned`). */
  readonly provenance: 'model' | 'fallback' | 'canned';
}

/** The summary of a run that waits (approvals, unknown outcomes): no `value`; `resumeRun(queue, summary.suspended, decisions)` continues it. */
export interface SuspendedRunJobSummary<T = unknown> extends RunJobSummaryBase {
  readonly status: 'suspended';
  /** The calls waiting for approval. */
  readonly pendingApprovals: SuspendedRunResult['pendingApprovals'];
  /** Calls a crash left without a known outcome (a recovered durable run): settle them with `resumeRun(queue, summary.suspended, { outcomes, retry })`. */
  readonly unknownOutcomes?: SuspendedRunResult['unknownOutcomes'];
  /** What `resumeRun` takes. */
  readonly suspended: SuspendedRunJob<T>;
}

/** A job's return value: a JSON summary of the run, a union on `status` (narrow it to read `value`). */
export type RunJobSummary<T = unknown> = CompleteRunJobSummary<T> | SuspendedRunJobSummary<T>;

/** An agent-run job whose return value is a summary with a `value` of type `T`. */
export type RunJob<T = unknown> = Job<RunJobData, RunJobSummary<T>>;

/** What a job reports as progress while its run goes on: counts of everything so far, sent in order. */
export interface RunJobProgress {
  /** The step under way (the last `step.start`). */
  readonly step: number;
  /** Retries so far (validation feedback and transient errors, in steps and in re-asks). */
  readonly retries: number;
  /** Tool results so far. */
  readonly toolCalls: number;
  /** Re-asks for tool arguments so far. */
  readonly toolReAsks: number;
  /** Progress events so far, this one included: each update has the next number, none is skipped. */
  readonly events: number;
  /** The last thing that happened: `start`, `step-start`, `step-end`, `retry`, `tool-re-ask`, `tool-result`. */
  readonly last: string;
}

/** What tells a job from an earlier job of the same id: its run key, else (added without `enqueueRun`) its creation time. */
export function runKeyOf(job: Pick<Job<RunJobData>, 'data' | 'timestamp'>): string {
  return job.data.runKey ?? `t${job.timestamp}`;
}

/** The id of a job's run: `<prefix>:<queue>:<job id>:<run key>`, the same for every run of that job, new for a new job. */
export function runIdOf(job: Pick<Job<RunJobData>, 'id' | 'data' | 'timestamp'>, queue: string, prefix: string): string {
  return `${prefix}:${queue}:${job.id}:${runKeyOf(job)}`;
}

/** Checks job data read back from Redis. */
export function isRunJobData(value: unknown): value is RunJobData {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Record<string, unknown>;
  const inputOk =
    typeof data.input === 'string' ||
    (typeof data.input === 'object' && data.input !== null && !Array.isArray(data.input) && typeof (data.input as { message?: unknown }).message === 'string') ||
    (Array.isArray(data.input) && data.input.every((message: Message) => typeof message === 'object' && message !== null && typeof message.role === 'string'));
  return (
    typeof data.agent === 'string' &&
    inputOk &&
    (data.conversationId === undefined || typeof data.conversationId === 'string') &&
    (data.tenant === undefined || typeof data.tenant === 'string') &&
    (data.runKey === undefined || typeof data.runKey === 'string') &&
    (data.stream === undefined || typeof data.stream === 'boolean') &&
    (data.resume === undefined || (typeof data.resume === 'object' && data.resume !== null && typeof (data.resume as { state?: unknown }).state === 'object'))
  );
}
