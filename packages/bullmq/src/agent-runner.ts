import type { Agent, AgentBuilder, RunInput, RunOptions, RunResult } from '@keel/core';

/** What a run reports as it goes: a step starts or ends, a retry, a tool result. */
export type RunProgressKind = 'step-start' | 'step-end' | 'retry' | 'tool-result';

/** Runs one agent for jobs, reporting progress. */
export type AgentRunner = (input: RunInput, options: RunOptions & { readonly runId: string }, onProgress: (kind: RunProgressKind, step: number) => void) => Promise<RunResult<unknown>>;

/** An agent as a worker takes it: built, or a builder the worker finishes with its own listeners. */
export type WorkerAgent = Agent<unknown> | AgentBuilder<unknown>;

const isBuilder = (agent: WorkerAgent): agent is AgentBuilder<unknown> => typeof (agent as { build?: unknown }).build === 'function';

/**
 * A builder gets event listeners that route each run's events to its job (by run id), and runs
 * with `run()`, exactly as elsewhere. A built agent cannot take listeners any more, so its
 * progress is read from `stream()` (its provider calls then stream).
 */
export function agentRunner(agent: WorkerAgent): AgentRunner {
  if (!isBuilder(agent)) {
    return async (input, options, onProgress) => {
      const stream = agent.stream(input, options);
      for await (const part of stream) {
        if (part.type === 'step-start' || part.type === 'step-end' || part.type === 'retry' || part.type === 'tool-result') onProgress(part.type, part.step);
      }
      return stream.result;
    };
  }
  const listening = new Map<string, (kind: RunProgressKind, step: number) => void>();
  const route = (kind: RunProgressKind) => (event: { readonly runId: string; readonly step: number }) => listening.get(event.runId)?.(kind, event.step);
  const built = agent
    .on('step.start', route('step-start'))
    .on('step.end', route('step-end'))
    .on('reliability.retry', route('retry'))
    .on('tool.end', route('tool-result'))
    .build();
  return async (input, options, onProgress) => {
    listening.set(options.runId, onProgress);
    try {
      return await built.run(input, options);
    } finally {
      listening.delete(options.runId);
    }
  };
}
