import { beginDurableRun } from '../durable/durable-run';
import type { RunStore } from '../contracts/run-store';
import { newRunId, type RunExtras } from '../run/run-loop';
import { checkRunOptions } from '../run/state/check-run-options';
import type { RunOptions, RunResult } from '../contracts/run-result';

/**
 * A durable run's start: the run id (given, or made), refused when the store holds it already;
 * this process becomes the run's owner and `start` runs it with its store added to `extras`.
 * A run that fails before its first entry gives its id back.
 */
export async function startDurable(
  store: RunStore,
  agentId: () => Promise<string>,
  given: RunOptions | undefined,
  extras: RunExtras,
  start: (options: RunOptions, extras: RunExtras) => Promise<RunResult<unknown>>,
): Promise<RunResult<unknown>> {
  const options = checkRunOptions(given ?? {});
  const runId = options.runId ?? newRunId();
  const { store: journal, abandon } = await beginDurableRun(store, runId, { agentId: await agentId(), tenant: options.tenant });
  try {
    return await start({ ...options, runId }, { ...extras, store: journal });
  } catch (error) {
    // A run that failed before its first checkpoint left nothing: its id may be started again at once.
    await abandon();
    throw error;
  }
}
