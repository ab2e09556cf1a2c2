import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentBuilder, type AgentEventName, type RunResult, tool } from '../index';
import { scriptedModel, asComplete } from '../testing/index';

/**
 * Observers never change outcomes: with a listener on every event that throws (or rejects), a run
 * ends exactly as it does without one — same value, text, attempts, tool calls and usage.
 */

const everyEvent: AgentEventName[] = [
  'run.start', 'run.end', 'step.start', 'step.end', 'model.request', 'model.response', 'model.error', 'usage.invalid',
  'tool.start', 'tool.end', 'tool.validation', 'tool.re-ask', 'validation.failed', 'reliability.retry',
  'reliability.recovered', 'reliability.fail-fast', 'reliability.rule-error', 'reliability.feedback-error',
  'output.fallback-used',
];

const Answer = Type.Object({ n: Type.Number() });

/** A run that touches most events: a tool call with a re-ask, a provider fault, an invalid answer, a bad usage count. */
function builder(): AgentBuilder<{ n: number }> {
  const model = scriptedModel([
    { toolCalls: [{ id: 'a', name: 'double', arguments: { n: 'two' } }], usage: { outputTokens: -3 } },
    { toolCalls: [{ id: 'a', name: 'double', arguments: { n: 2 } }] },
    Object.assign(new Error('overloaded'), { status: 529 }),
    '{"n": "x"}',
    '{"n": 4}',
  ]);
  const double = tool({ name: 'double', description: 'doubles', input: Type.Object({ n: Type.Number() }), execute: ({ n }) => n * 2 });
  return Agent.create({ provider: model, model: 'm' }).tool(double).outputSchema(Answer);
}

const comparable = (given: RunResult<unknown>) => {
  const result = asComplete(given);
  return {
    value: result.value,
  text: result.text,
  provenance: result.provenance,
  attempts: result.attempts.map(({ elapsedMs: _elapsed, ...attempt }) => attempt),
  toolCalls: result.toolCalls.map(({ durationMs: _duration, ...call }) => call),
  messages: result.messages,
  usage: result.usage,
  finishReason: result.finishReason,
  };
};

describe('listeners that throw on every event', () => {
  it.each([
    ['throw', () => { throw new Error('listener bug'); }],
    ['reject', () => Promise.reject(new Error('async listener bug'))],
    ['throw a hostile value', () => { throw new Proxy({}, { get: () => { throw new Error('trap'); } }); }],
  ])('that %s leave the result unchanged', async (_name, listener) => {
    const baseline = await builder().build().run('go');
    let noisy = builder();
    const fired = new Set<string>();
    for (const event of everyEvent) {
      noisy = noisy.on(event, () => {
        fired.add(event);
        return listener();
      });
    }
    const errors: string[] = [];
    noisy = noisy.on('listener.error', (payload) => void errors.push(payload.event));
    const result = asComplete(await noisy.build().run('go'));
    expect(comparable(result)).toEqual(comparable(baseline));
    expect(result.value).toEqual({ n: 4 });
    // The run did reach these events, and each listener failure was reported.
    for (const event of ['model.request', 'model.error', 'usage.invalid', 'tool.re-ask', 'validation.failed', 'reliability.retry', 'run.end'] as const) {
      expect(fired.has(event)).toBe(true);
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(new Set(errors)).toEqual(fired);
  });
});
