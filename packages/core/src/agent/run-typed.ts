import type { RunInput, RunOptions } from '../contracts/run-result';

/** Whether an agent with output type `TOutput` has an output schema: an output other than `string` needs one; a `string` one may or not. */
export type HasSchema<TOutput> = string extends TOutput ? boolean : true;

/** What `runTyped()` is on an agent without an output schema: nothing to call, and the reason why. */
export interface RunTypedNeedsOutputSchema {
  readonly 'runTyped() needs an output schema: give the builder .outputSchema(schema), or use run()': never;
}

/** `runTyped()`: callable on an agent with an output schema only. */
export type RunTyped<TOutput, THasSchema extends boolean> = THasSchema extends true
  ? <T extends TOutput = TOutput>(input: RunInput, options?: RunOptions) => Promise<T>
  : RunTypedNeedsOutputSchema;
