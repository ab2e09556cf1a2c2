import type { RunContext } from './state/run-context';

/** The run's context for one step: the same run, at that step (nothing writes a context; events name the step they belong to). */
export function stepContext(context: RunContext, step: number): RunContext {
  return context.step === step ? context : { ...context, step };
}
