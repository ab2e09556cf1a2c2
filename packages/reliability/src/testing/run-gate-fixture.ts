/** The task schema, scripted model calls and helpers the runGate tests share. */
import { Type } from '@sinclair/typebox';
import { expect, vi } from 'vitest';
import { ReliabilityFailFastError } from '../errors/reliability-fail-fast-error';
import { type TokenUsage, ZERO_USAGE } from '../usage';
import { toValidator } from '../validation/to-validator';
import { validateOutput } from '../validation/validate-output';
import type { GateEvent } from '../gate/gate-event';
import type { GateAttemptContext, GateOptions, GateResult, GateVerdict } from '../gate/gate-options';
import { runGate } from '../gate/run-gate';

const taskSchema = Type.Object({ title: Type.String() }, { additionalProperties: false });
const taskValidator = toValidator(taskSchema);
/** The value a valid answer parses to. */
export type Task = { title: string };

/** Judges model text as JSON against the task schema, the way an output gate does. */
export async function judge(text: string): Promise<GateVerdict<Task>> {
  const check = await validateOutput(text, taskValidator);
  if (check.ok) return { status: 'valid', value: check.value, rawOutput: text };
  return { status: 'invalid', failure: check.failure };
}

type Step = string | { readonly throws: unknown };

/** A fake model call that plays `steps` in order (the last one repeats) and records each attempt's context. */
export function script(...steps: Step[]) {
  const contexts: GateAttemptContext[] = [];
  const call = vi.fn(async (context: GateAttemptContext): Promise<string> => {
    contexts.push(context);
    const step = steps[Math.min(contexts.length, steps.length) - 1];
    if (step === undefined) throw new Error('script is empty');
    if (typeof step === 'object') throw step.throws;
    return step;
  });
  return { call, contexts };
}

/** The gate events reported, and the listener that records them. */
export function recorder() {
  const events: GateEvent[] = [];
  return { events, onEvent: (event: GateEvent) => events.push(event) };
}

/** Runs the gate with the task judge as its validator, unless `options` gives another. */
export function gate(options: Partial<GateOptions<string, Task>> & Pick<GateOptions<string, Task>, 'call'>): Promise<GateResult<string, Task>> {
  return runGate<string, Task>({ validate: judge, ...options });
}

/** The ReliabilityFailFastError `promise` rejects with; fails the test when it resolves or rejects with anything else. */
export async function failFastOf(promise: Promise<unknown>): Promise<ReliabilityFailFastError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the gate to fail fast');
    },
    (thrown: unknown) => thrown,
  );
  expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
  return error as ReliabilityFailFastError;
}

/** Usage totals of `inputTokens` and `outputTokens` (and a cost, when given). */
export function tokens(inputTokens: number, outputTokens = 0, costUsd?: number): TokenUsage {
  return { ...ZERO_USAGE, inputTokens, outputTokens, ...(costUsd === undefined ? {} : { costUsd }) };
}

/** A script step that throws a rate-limit error, with a Retry-After when given. */
export const rateLimited = (retryAfterMs?: number) => ({ throws: { errorKind: 'rate-limit', message: 'slow down', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) } });
