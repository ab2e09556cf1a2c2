import { type AnySchema, ReliabilityFailFastError } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type Message, MaxStepsExceededError, tool } from '../index';
import { type ScriptedReply, scriptedModel } from '../testing/index';

/**
 * A model-based test: a small reference model of the gate's documented decisions
 * (docs/reliability-gate.md, docs/strict-output.md, docs/tool-argument-feedback.md), written
 * without the engine's code, predicts the calls, the outcome, the kept messages and the usage of
 * random scripted runs; the engine must agree on every one.
 *
 * The documented defaults it models: an output schema's failures are retried with feedback up to
 * 2 times (`schema-retry-exhausted` after); the same mistake twice in a row stops
 * (`schema-stuck-loop`), a different mistake is progress whatever the validator (TypeBox, Zod
 * refinements, an opaque `{ parse }`); transient provider errors are retried 2 times per gate run
 * (`transient-retries-exhausted` after); a tool call's invalid arguments are re-asked up to 2 times
 * (`toolRetries`), `redundant` when the corrected call repeats the same arguments or mistake,
 * `gave-up` when the model answers without calling the tool, and either way the model then gets
 * an error result and the run goes on; a step without a final answer moves to the next, up to
 * `maxSteps`.
 */

/** What the model replies on one call. */
type Move = 'valid' | 'prose' | 'bad-a' | 'bad-b' | 'transient' | 'tool-good' | 'tool-bad' | 'tool-bad-other';
type ValidatorKind = 'typebox' | 'zod' | 'parse';

const MAX_STEPS = 3;
const TOKENS = { inputTokens: 10, outputTokens: 5 };
const VALID = '{"a":1,"b":"x"}';

// ---------------------------------------------------------------- the reference model

/** The signature of a mistake, as the docs define "the same mistake". */
function mistakeOf(move: Move): string | undefined {
  if (move === 'prose') return 'parse';
  if (move === 'bad-a') return 'a';
  if (move === 'bad-b') return 'b';
  return undefined;
}

type Kept = { role: string; text?: string; calls?: { id: string; arguments: unknown }[]; results?: { id: string; isError: boolean }[] };
type Prediction = { outcome: string; calls: number; usageCalls: number; kept: Kept[] | undefined };

function predict(moves: readonly Move[], toolArguments: (move: Move, index: number) => unknown): Prediction {
  let index = 0;
  let usageCalls = 0;
  const next = (): Move => {
    const move = moves[index++] ?? 'valid';
    if (move !== 'transient') usageCalls++;
    return move;
  };
  const kept: Kept[] = [{ role: 'user', text: 'question' }];
  const done = (outcome: string, withKept = false): Prediction => ({ outcome, calls: index, usageCalls, kept: withKept ? kept : undefined });

  for (let step = 1; step <= MAX_STEPS; step++) {
    // The step's gate run.
    let transient = 0;
    let failures = 0;
    let lastMistake: string | undefined;
    let turn: Move | undefined;
    let turnIndex = 0;
    while (turn === undefined) {
      const callIndex = index;
      const move = next();
      if (move === 'transient') {
        if (++transient > 2) return done('stop:transient-retries-exhausted');
        continue;
      }
      const mistake = mistakeOf(move);
      if (mistake === undefined) {
        turn = move;
        turnIndex = callIndex;
        continue;
      }
      if (mistake === lastMistake) return done('stop:schema-stuck-loop');
      lastMistake = mistake;
      if (++failures > 2) return done('stop:schema-retry-exhausted');
    }
    if (turn === 'valid') {
      kept.push({ role: 'assistant', text: VALID });
      return done('value', true);
    }
    // A tool call: checked, re-asked while invalid.
    const id = `t${turnIndex}`;
    let finalArguments = toolArguments(turn, turnIndex);
    let ok = turn === 'tool-good';
    if (!ok) {
      let reAskFailures = 0;
      let reAskTransient = 0;
      let lastArguments = JSON.stringify(finalArguments);
      let lastToolMistake = turn;
      for (;;) {
        const callIndex = index;
        const move = next();
        if (move === 'transient') {
          if (++reAskTransient > 2) return done('stop:transient-retries-exhausted');
          continue;
        }
        if (move !== 'tool-good' && move !== 'tool-bad' && move !== 'tool-bad-other') break; // gave-up
        const args = toolArguments(move, callIndex);
        finalArguments = args;
        if (move === 'tool-good') {
          ok = true;
          break;
        }
        if (move === lastToolMistake || JSON.stringify(args) === lastArguments) break; // redundant
        lastToolMistake = move;
        lastArguments = JSON.stringify(args);
        if (++reAskFailures >= 2) break; // exhausted
      }
    }
    kept.push({ role: 'assistant', calls: [{ id, arguments: finalArguments }] }, { role: 'tool', results: [{ id, isError: !ok }] });
  }
  return done('max-steps');
}

// ---------------------------------------------------------------- the engine

const schemas: Record<ValidatorKind, AnySchema> = {
  typebox: Type.Object({ a: Type.Number(), b: Type.String() }),
  zod: z
    .object({ a: z.number(), b: z.string() })
    .refine((value) => value.a < 10, { message: 'a must be below 10' })
    .refine((value) => value.b.length < 5, { message: 'b must be short' }),
  parse: {
    parse(value: unknown) {
      const { a, b } = (value ?? {}) as { a?: unknown; b?: unknown };
      if (typeof a !== 'number' || a >= 10) throw new Error(`a must be a number below 10, got ${JSON.stringify(a)}`);
      if (typeof b !== 'string' || b.length >= 5) throw new Error(`b must be a short string, got ${JSON.stringify(b)}`);
      return { a, b };
    },
  },
};

/** The reply text of a final-answer move, for a validator: each bad move breaks only its own field. */
function answerText(move: Move, validator: ValidatorKind, nonce: number): string {
  if (move === 'prose') return 'I think the answer is fine.';
  if (move === 'bad-a') return validator === 'typebox' ? `{"a":"v${'q'.repeat(1 + (nonce % 3))}","b":"x"}` : `{"a":${50 + nonce},"b":"x"}`;
  if (move === 'bad-b') return validator === 'typebox' ? `{"a":${nonce % 5}}` : `{"a":1,"b":"${'y'.repeat(6 + (nonce % 4))}"}`;
  return VALID;
}

const toolArgumentsOf = (move: Move, index: number): unknown => (move === 'tool-good' ? { n: index } : move === 'tool-bad' ? { n: `many${'x'.repeat(index % 3)}` } : {});

function script(moves: readonly Move[], validator: ValidatorKind): ScriptedReply[] {
  const replies: ScriptedReply[] = moves.map((move, index) => {
    if (move === 'transient') return Object.assign(new Error('busy'), { errorKind: 'server-error' as const, retryAfterMs: 0 });
    if (move.startsWith('tool')) return { toolCalls: [{ id: `t${index}`, name: 'count', arguments: toolArgumentsOf(move, index) }], usage: TOKENS };
    return { text: answerText(move, validator, index), usage: TOKENS };
  });
  // After the script, the model answers validly, so every run ends by the rules, never by running out.
  return [...replies, ...Array.from({ length: 40 }, () => ({ text: VALID, usage: TOKENS }))];
}

function keptOf(messages: readonly Message[]): Kept[] {
  return messages.map((message) => {
    if (message.role === 'user' || message.role === 'system') return { role: message.role, text: message.content };
    if (message.role === 'tool') return { role: 'tool', results: message.content.map((part) => ({ id: part.toolCallId, isError: part.isError })) };
    const calls = message.content.flatMap((part) => (part.type === 'tool-call' ? [{ id: part.id, arguments: part.arguments }] : []));
    const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    return calls.length > 0 ? { role: 'assistant', calls } : { role: 'assistant', text };
  });
}

async function engine(moves: readonly Move[], validator: ValidatorKind): Promise<Prediction> {
  const model = scriptedModel(script(moves, validator));
  const count = tool({ name: 'count', description: 'counts', input: Type.Object({ n: Type.Number() }), execute: ({ n }) => n });
  const agent = Agent.create({ provider: model, model: 'm', maxSteps: MAX_STEPS }).tool(count).outputSchema(schemas[validator]).build();
  try {
    const result = await agent.run('question');
    return { outcome: 'value', calls: model.calls, usageCalls: result.usage.inputTokens / TOKENS.inputTokens, kept: keptOf(result.messages) };
  } catch (error) {
    if (MaxStepsExceededError.isInstance(error)) return { outcome: 'max-steps', calls: model.calls, usageCalls: error.partial.usage.inputTokens / TOKENS.inputTokens, kept: undefined };
    if (!ReliabilityFailFastError.isInstance(error)) throw error;
    const tokens = error.attempts.reduce((sum, attempt) => sum + attempt.usage.inputTokens, 0);
    return { outcome: `stop:${error.kind}`, calls: model.calls, usageCalls: tokens / TOKENS.inputTokens, kept: undefined };
  }
}

const moveArbitrary = fc.constantFrom<Move>('valid', 'prose', 'bad-a', 'bad-b', 'transient', 'tool-good', 'tool-bad', 'tool-bad-other');
const caseArbitrary = fc.record({
  // Weighted towards failures, so stops and re-asks are common.
  moves: fc.array(fc.oneof({ arbitrary: moveArbitrary, weight: 3 }, { arbitrary: fc.constantFrom<Move>('bad-a', 'bad-b', 'prose', 'tool-bad', 'transient'), weight: 2 }), { minLength: 1, maxLength: 14 }),
  validator: fc.constantFrom<ValidatorKind>('typebox', 'zod', 'parse'),
});

describe('the engine against a reference model of the documented gate', () => {
  it('agrees on calls, outcome, kept messages and usage (1,000 random scripts)', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ moves, validator }) => {
        const expected = predict(moves, toolArgumentsOf);
        const actual = await engine(moves, validator);
        seen.add(expected.outcome);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
    // The scripts reach every kind of ending the model knows.
    expect([...seen].sort()).toEqual(['max-steps', 'stop:schema-retry-exhausted', 'stop:schema-stuck-loop', 'stop:transient-retries-exhausted', 'value']);
  }, 120_000);
});
