import { AgentConfigurationError, type AgentStreamPart, DurableRunError, type RunInput, type RunOptions, type RunResult } from '@keel/core';
import { agentIdentityKey } from '@keel/core/internal';
import type { ResumeJob, WorkerAgent } from './run-job';

/** What a run reports as it goes: a step starts or ends, a retry, a tool re-ask, a tool result. */
export type RunProgressKind = 'step-start' | 'step-end' | 'retry' | 'tool-re-ask' | 'tool-result';

/** How one run reports: progress events, and (when streaming) every stream part. */
export interface RunReporting {
  readonly onProgress: (kind: RunProgressKind, step: number) => void;
  /** Given: the run is streamed (`agent.stream()`) and each part handed here, in order. */
  readonly onPart?: (part: AgentStreamPart<unknown>) => void;
}

/** Runs one agent for jobs, reporting each run's progress. */
export interface AgentRunner {
  run(input: RunInput, options: RunOptions & { readonly runId: string }, reporting: RunReporting): Promise<RunResult<unknown>>;
  /** Continues a suspended run (`agent.resume()`), reporting its progress under the state's run id. */
  resume(job: ResumeJob, options: Pick<RunOptions, 'signal' | 'timeoutMs' | 'tenant'>, reporting: RunReporting): Promise<RunResult<unknown>>;
  /**
   * Continues the run from its durable checkpoint (`agent.recover()`), reporting its progress;
   * `undefined` when there is nothing to recover: the agent is not durable, or the store has no
   * checkpoint of the run (the earlier attempt died before its first).
   */
  recover(runId: string, options: Pick<RunOptions, 'signal' | 'timeoutMs' | 'tenant'>, reporting: RunReporting): Promise<RunResult<unknown> | undefined>;
  /** The agent's id (see `agent.id()`). */
  id(): Promise<string>;
  /** A key equal for two agents of one id, read at once (see `agentIdentityKey`). */
  identityKey(): string | undefined;
  /** Removes the runner's listeners from the agent. */
  detach(): void;
}

const isBuilder = (agent: WorkerAgent): agent is Extract<WorkerAgent, { build: unknown }> => typeof (agent as { build?: unknown }).build === 'function';

/**
 * Listens to the agent's step, retry and tool events once, and routes each to the job whose run
 * it belongs to (by run id); runs use `run()`, exactly as outside a worker, or `stream()` when the
 * job is streamed.
 */
export function agentRunner(agent: WorkerAgent): AgentRunner {
  const built = isBuilder(agent) ? agent.build() : agent;
  const listening = new Map<string, (kind: RunProgressKind, step: number) => void>();
  const route = (kind: RunProgressKind) => (event: { readonly runId: string; readonly step: number }) => listening.get(event.runId)?.(kind, event.step);
  const removers = [
    built.on('step.start', route('step-start')),
    built.on('step.end', route('step-end')),
    built.on('reliability.retry', route('retry')),
    built.on('tool.re-ask', route('tool-re-ask')),
    built.on('tool.end', route('tool-result')),
  ];
  return {
    async run(input, options, { onProgress, onPart }) {
      listening.set(options.runId, onProgress);
      try {
        if (!onPart) return await built.run(input, options);
        const stream = built.stream(input, options);
        for await (const part of stream) if (part.type !== 'result') onPart(part);
        return await stream.result;
      } finally {
        listening.delete(options.runId);
      }
    },
    async resume(job, options, { onProgress }) {
      const runId = job.state.runId;
      listening.set(runId, onProgress);
      try {
        return await built.resume(job.state, job.decisions, options);
      } finally {
        listening.delete(runId);
      }
    },
    async recover(runId, options, { onProgress }) {
      listening.set(runId, onProgress);
      try {
        return await built.recover(runId, options);
      } catch (error) {
        if ((DurableRunError.isInstance(error) && error.problem === 'not-found') || (AgentConfigurationError.isInstance(error) && error.setting === 'durable')) return undefined;
        throw error;
      } finally {
        listening.delete(runId);
      }
    },
    id: () => built.id(),
    identityKey: () => agentIdentityKey(built),
    detach: () => {
      for (const remove of removers) remove();
    },
  };
}
