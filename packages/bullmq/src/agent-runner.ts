import type { Agent, AgentBuilder, RunInput, RunOptions, RunResult } from '@keel/core';

/** What a run reports as it goes: a step starts or ends, a retry, a tool result. */
export type RunProgressKind = 'step-start' | 'step-end' | 'retry' | 'tool-result';

/** Runs one agent for jobs, reporting each run's progress. */
export interface AgentRunner {
  run(input: RunInput, options: RunOptions & { readonly runId: string }, onProgress: (kind: RunProgressKind, step: number) => void): Promise<RunResult<unknown>>;
  /** Removes the runner's listeners from the agent. */
  detach(): void;
}

/** An agent as a worker takes it: built, or a builder the worker builds. */
export type WorkerAgent = Agent<unknown> | AgentBuilder<unknown>;

const isBuilder = (agent: WorkerAgent): agent is AgentBuilder<unknown> => typeof (agent as { build?: unknown }).build === 'function';

/**
 * Listens to the agent's step, retry and tool events once, and routes each to the job whose run
 * it belongs to (by run id); runs use `run()`, exactly as outside a worker.
 */
export function agentRunner(agent: WorkerAgent): AgentRunner {
  const built = isBuilder(agent) ? agent.build() : agent;
  const listening = new Map<string, (kind: RunProgressKind, step: number) => void>();
  const route = (kind: RunProgressKind) => (event: { readonly runId: string; readonly step: number }) => listening.get(event.runId)?.(kind, event.step);
  const removers = [
    built.on('step.start', route('step-start')),
    built.on('step.end', route('step-end')),
    built.on('reliability.retry', route('retry')),
    built.on('tool.end', route('tool-result')),
  ];
  return {
    async run(input, options, onProgress) {
      listening.set(options.runId, onProgress);
      try {
        return await built.run(input, options);
      } finally {
        listening.delete(options.runId);
      }
    },
    detach: () => {
      for (const remove of removers) remove();
    },
  };
}
