import type { CallWrapper, WrappedCall } from '@keel/core';
import { DBOS } from '@dbos-inc/dbos-sdk';

/** What one execution of a workflow (its first, or a replay after a crash) knows about its run. */
export interface WorkflowExecution {
  /** Aborts the run this execution drives now, when a tool call turns out to have been interrupted. */
  controller: AbortController;
  /** Set when the run was stopped on an interrupted tool call: the workflow then recovers it. */
  interrupted: boolean;
  /** The tool steps running now that were not interrupted. */
  readonly running: Set<Promise<unknown>>;
}

/** A new execution's state. */
export function workflowExecution(): WorkflowExecution {
  return { controller: new AbortController(), interrupted: false, running: new Set() };
}

/** What a tool step records: the value its `execute` returned, or that an earlier process started it and never recorded an outcome. */
type ToolStepOutcome = { readonly value: unknown } | { readonly interrupted: true };

const modelStepName = (call: Extract<WrappedCall, { type: 'model' }>): string => `keel.model ${call.step}.${call.attempt}${call.toolCallId === undefined ? '' : ` ${call.toolCallId}`}`;

/**
 * A call wrapper making each model call and each tool call of a run a DBOS step of the workflow
 * running it (outside a workflow, calls run as they are). A recovered workflow replays the steps
 * that finished from DBOS (a model call is not asked again, a tool is not run again) and runs the
 * rest. A tool call is two steps: its intent (recorded before it runs) and its outcome. An intent
 * recorded by an earlier process with no outcome is an interrupted call: nothing runs, the outcome
 * step records that, and the run is stopped so that Keel's recovery decides the call by its
 * tool's `effect` (run again with its idempotency key, or an unknown outcome for `once`).
 */
export function dbosCalls(execution: () => WorkflowExecution): CallWrapper {
  return <T>(call: WrappedCall, proceed: () => T): T => {
    if (!DBOS.isInWorkflow()) return proceed();
    if (call.type === 'model') return DBOS.runStep(async () => await proceed(), { name: modelStepName(call) }) as T;
    return toolStep(execution(), call, proceed) as T;
  };
}

async function toolStep(execution: WorkflowExecution, call: Extract<WrappedCall, { type: 'tool' }>, proceed: () => unknown): Promise<unknown> {
  let fresh = false;
  await DBOS.runStep(
    async () => {
      fresh = true;
      return call.toolCallId;
    },
    { name: `keel.tool-intent ${call.toolName} ${call.toolCallId}` },
  );
  const step = DBOS.runStep<ToolStepOutcome>(async () => (fresh ? { value: await proceed() } : { interrupted: true }), { name: `keel.tool ${call.toolName} ${call.toolCallId}` });
  if (fresh) {
    execution.running.add(step);
    void step.then(
      () => execution.running.delete(step),
      () => execution.running.delete(step),
    );
  }
  const outcome = await step;
  if ('value' in outcome) return outcome.value;
  // Let the calls of the turn that are running finish (their outcomes recorded), then stop the run.
  await Promise.allSettled(execution.running);
  await new Promise((resolve) => setImmediate(resolve));
  execution.interrupted = true;
  execution.controller.abort(new Error(`tool call ${call.toolCallId} (${call.toolName}) was interrupted by a crash`));
  throw new Error(`tool call ${call.toolCallId} (${call.toolName}) was interrupted by a crash: the run is recovered`);
}
