import { tokenBudget } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type ModelRequest, ReliabilityFailFastError, tool } from '../index';
import { type ScriptedReply, scriptedModel } from '../testing/index';

/**
 * Caps that hold: a token budget as a PreCheck rule is never exceeded by more than one model call's
 * usage, however many invalid tool calls the model returns in one turn (K), each with its own
 * concurrent re-ask. Every call costs 300 tokens; the cap is 1000.
 */

const CALL_TOKENS = 300;
const CAP = 1000;
const usage = { inputTokens: CALL_TOKENS, outputTokens: 0 };

function setup(k: number) {
  let reasks = 0;
  const script = async (request: ModelRequest, call: number): Promise<ScriptedReply> => {
    // Answers come back a little later, so re-asks overlap in time as real calls do.
    await new Promise((resolve) => setTimeout(resolve, 2));
    if (request.toolChoice?.type === 'tool') {
      reasks++;
      return { toolCalls: [{ name: 'lookup', arguments: { n: `still-wrong-${reasks}` } }], usage };
    }
    if (call === 1) return { toolCalls: Array.from({ length: k }, (_, index) => ({ id: `c${index}`, name: 'lookup', arguments: { n: 'wrong' } })), usage };
    return { text: 'done', usage };
  };
  const model = scriptedModel(script);
  const lookup = tool({ name: 'lookup', description: 'look up', input: Type.Object({ n: Type.Number() }), execute: ({ n }) => n });
  const agent = Agent.create({ provider: model, model: 'm', toolRetries: 3 }).tool(lookup).reliability({ preCheck: [tokenBudget(CAP)] }).build();
  return { model, agent };
}

describe('a token budget holds under concurrent re-asks', () => {
  it('K = 1: the run finishes under the cap (3 calls, 900 tokens)', async () => {
    const { model, agent } = setup(1);
    const result = await agent.run('go');
    expect(result.text).toBe('done');
    expect(model.calls).toBe(3);
    expect(result.usage.totalTokens).toBe(900);
  });

  it.each([10, 50])('K = %i: stops at 4 calls, 1200 tokens — over the cap by less than one call', async (k) => {
    const { model, agent } = setup(k);
    const error = await agent.run('go').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    const failFast = error as ReliabilityFailFastError;
    expect(failFast.kind).toBe('token-budget');
    expect(failFast.phase).toBe('pre-check');
    expect(model.calls).toBe(4);
    // The error carries every attempt of the run, concurrent re-asks included.
    expect(failFast.attempts).toHaveLength(4);
    const spent = failFast.attempts.reduce((sum, attempt) => sum + attempt.usage.inputTokens + attempt.usage.outputTokens, 0);
    expect(spent).toBe(1200);
    expect(spent).toBeLessThanOrEqual(CAP + CALL_TOKENS);
  });

  it('without PreCheck rules, re-asks still run concurrently', async () => {
    let inFlight = 0;
    let most = 0;
    const model = scriptedModel(async (request, call) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 10));
      inFlight--;
      if (request.toolChoice?.type === 'tool') return { toolCalls: [{ name: 'lookup', arguments: { n: 1 } }] };
      return call === 1 ? { toolCalls: Array.from({ length: 5 }, (_, index) => ({ id: `c${index}`, name: 'lookup', arguments: { n: 'x' } })) } : 'done';
    });
    const lookup = tool({ name: 'lookup', description: 'look up', input: Type.Object({ n: Type.Number() }), execute: ({ n }) => n });
    await Agent.create({ provider: model, model: 'm' }).tool(lookup).build().run('go');
    expect(most).toBe(5);
  });
});
