import { KeelError, tokenBudget, transientRetryRule } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, Agent, type AgentEvents, InMemoryStore, type Message, type ModelResponse, ReliabilityFailFastError, type RunResult, tool } from '../index';
import { type ModelProviderV1 } from '@keel/provider';
import { MaxStepsExceededError } from '../errors/max-steps-exceeded-error';

/**
 * Random scripted runs — valid and invalid answers, tool calls with good and bad arguments,
 * provider faults, malformed responses, bad usage, aborts — and the invariants that must hold after
 * every one of them.
 */

type Move =
  | { readonly kind: 'valid' | 'invalid' | 'not-json' | 'transient' | 'auth' | 'malformed' | 'bad-usage' | 'abort' }
  | { readonly kind: 'tools'; readonly good: readonly boolean[] };

const moveArbitrary: fc.Arbitrary<Move> = fc.oneof(
  fc.constantFrom<Move>(
    { kind: 'valid' },
    { kind: 'invalid' },
    { kind: 'not-json' },
    { kind: 'transient' },
    { kind: 'auth' },
    { kind: 'malformed' },
    { kind: 'bad-usage' },
    { kind: 'abort' },
  ),
  fc.record({ kind: fc.constant('tools' as const), good: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }) }),
);

const scenarioArbitrary = fc.record({
  moves: fc.array(moveArbitrary, { maxLength: 12 }),
  withSchema: fc.boolean(),
  maxAttempts: fc.integer({ min: 1, max: 4 }),
  toolRetries: fc.integer({ min: 0, max: 2 }),
  budget: fc.option(fc.integer({ min: 10, max: 200 }), { nil: undefined }),
  messagesInput: fc.boolean(),
  noisyListeners: fc.boolean(),
});

type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;

const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
const text = (value: string, extra: Partial<ModelResponse> = {}): ModelResponse => ({ content: [{ type: 'text', text: value }], text: value, finishReason: 'stop', usage, ...extra });

/** A provider playing the moves in order (a valid answer once they run out); aborts the run on `abort`. */
function scriptedProvider(moves: readonly Move[], controller: AbortController) {
  const state = { calls: 0, aborted: false };
  const provider: ModelProviderV1 = {
    specificationVersion: 'v1',
    name: 'random',
    generate: async (request) => {
      const move = moves[state.calls++] ?? { kind: 'valid' };
      switch (move.kind) {
        case 'valid':
          return text('{"n": 1}');
        case 'invalid':
          return text('{"n": "one"}');
        case 'not-json':
          return text('not json at all');
        case 'transient':
          throw Object.assign(new Error('overloaded'), { status: 529, retryAfterMs: 0 });
        case 'auth':
          throw Object.assign(new Error('bad key'), { status: 401 });
        case 'malformed':
          return undefined as never;
        case 'bad-usage':
          return text('{"n": 2}', { usage: { ...usage, outputTokens: Number.NaN } });
        case 'abort':
          state.aborted = true;
          controller.abort(new Error('caller gave up'));
          return text('{"n": 3}');
        case 'tools': {
          const only = request.toolChoice?.type === 'tool';
          const calls = (only ? move.good.slice(0, 1) : move.good).map((good, index) => ({
            type: 'tool-call' as const,
            id: only ? 'reask' : `call_${state.calls}_${index}`,
            name: 'double',
            arguments: good ? { n: index } : { n: `bad-${state.calls}` },
          }));
          return { content: calls, text: '', finishReason: 'tool-calls', usage };
        }
      }
    },
  };
  return { provider, state };
}

const double = tool({ name: 'double', description: 'doubles', input: Type.Object({ n: Type.Number() }), execute: ({ n }) => n * 2 });

const HISTORY: readonly Message[] = [
  { role: 'user', content: 'earlier question' },
  { role: 'assistant', content: [{ type: 'text', text: 'earlier answer' }] },
];

const sumTokens = (attempts: readonly { usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number } }[]) =>
  attempts.reduce((sum, attempt) => sum + attempt.usage.inputTokens + attempt.usage.outputTokens + attempt.usage.cacheReadTokens + attempt.usage.cacheWriteTokens, 0);

let unhandled = 0;
const onUnhandled = () => void unhandled++;
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterAll(() => void process.off('unhandledRejection', onUnhandled));

async function check(scenario: Scenario): Promise<void> {
  const controller = new AbortController();
  const { provider, state } = scriptedProvider(scenario.moves, controller);
  const store = new InMemoryStore();
  await store.append('c', HISTORY);
  let builder = Agent.create({ provider, model: 'm', maxSteps: 3, maxAttempts: scenario.maxAttempts, toolRetries: scenario.toolRetries })
    .tool(double)
    .memory(store)
    .reliability({
      postDecide: [transientRetryRule({ backoff: { baseMs: 0 } })],
      ...(scenario.budget === undefined ? {} : { preCheck: [tokenBudget(scenario.budget)] }),
    });
  let ended: AgentEvents['run.end'] | undefined;
  builder = builder.on('run.end', (payload) => void (ended = payload));
  if (scenario.noisyListeners) {
    for (const event of ['model.request', 'model.response', 'model.error', 'validation.failed', 'tool.end', 'step.end'] as const) {
      builder = builder.on(event, () => {
        throw new Error('noisy');
      });
    }
  }
  const input: string | Message[] = scenario.messagesInput
    ? [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'question' },
        { role: 'user', content: 'stale feedback', ephemeral: true },
      ]
    : 'question';
  const before = structuredClone(input);
  const agent = scenario.withSchema ? builder.outputSchema(Type.Object({ n: Type.Number() })).build() : builder.build();

  let result: RunResult<unknown> | undefined;
  let error: unknown;
  try {
    result = await agent.run(input, { signal: controller.signal, conversationId: 'c' });
  } catch (thrown) {
    error = thrown;
  }

  // The outcome is a value, or a typed Keel error — never anything else.
  if (error !== undefined) expect(KeelError.isKeelError(error), `not a Keel error: ${String(error)}`).toBe(true);
  if (state.aborted) expect(AbortedError.isInstance(error)).toBe(true);
  // The caller's input is unchanged.
  expect(input).toEqual(before);
  // No ephemeral message is kept, in the result or in memory.
  const kept = await store.load('c');
  expect(kept.some((message) => message.ephemeral)).toBe(false);
  expect(result?.messages.some((message) => message.ephemeral) ?? false).toBe(false);
  if (!result) expect(kept).toEqual(HISTORY);
  // Every provider call is an attempt; no gate run goes past its cap.
  const attempts = result?.attempts ?? (ReliabilityFailFastError.isInstance(error) ? error.attempts : MaxStepsExceededError.isInstance(error) ? error.partial.attempts : undefined);
  // Every outcome but an abort carries its attempts; an abort is counted by run.end below.
  if (!AbortedError.isInstance(error)) expect(attempts, `no attempts on ${String(error)}`).toBeDefined();
  if (attempts) {
    expect(attempts).toHaveLength(state.calls);
    for (const attempt of attempts) expect(attempt.attempt).toBeLessThanOrEqual(scenario.maxAttempts);
  }
  // Run usage is the sum of the attempts' usage, and the run.end event agrees.
  expect(ended).toBeDefined();
  expect(ended?.modelCalls).toBe(state.calls);
  if (result) expect(result.usage.totalTokens).toBe(sumTokens(result.attempts));
  if (attempts) expect((ended?.inputTokens ?? 0) + (ended?.outputTokens ?? 0)).toBe(sumTokens(attempts));
}

describe('random scripted runs', () => {
  it('keep every invariant (1,000 cases)', async () => {
    await fc.assert(fc.asyncProperty(scenarioArbitrary, check), { numRuns: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unhandled).toBe(0);
  }, 60_000);
});
