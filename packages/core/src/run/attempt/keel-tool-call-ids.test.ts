import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type ModelRequest, type ModelResponse, tool } from '../../index';
import type { ModelProviderV1 } from '@keel/provider';
import { withKeelToolCallIds } from './keel-tool-call-ids';

/**
 * A provider that repeats its tool-call ids across turns (an OpenAI-compatible server that sends
 * none gets `call_0` in every turn from the adapter), or sends empty ones: Keel's ids keep every
 * call apart.
 */

const usage = { inputTokens: 400, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };

function repeating(turns: number, id: string): ModelProviderV1 & { readonly requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    specificationVersion: 'v1',
    name: 'repeating',
    requests,
    capabilities: () => ({ contextWindow: 3_000 }),
    generate: async (request) => {
      requests.push(request);
      const done = request.messages.filter((message) => message.role === 'tool').length;
      if (done >= turns) return { content: [{ type: 'text', text: 'Paid.' }], text: 'Paid.', finishReason: 'stop', usage } satisfies ModelResponse;
      return { content: [{ type: 'tool-call', id, name: 'credit', arguments: { amount: 10 + done } }], text: '', finishReason: 'tool-calls', usage } satisfies ModelResponse;
    },
  };
}

function creditAgent(provider: ModelProviderV1, applied: Map<string, number>) {
  const credit = tool({
    name: 'credit',
    description: 'Credits the customer once per idempotency key',
    input: Type.Object({ amount: Type.Number() }),
    effect: 'idempotent',
    execute: ({ amount }, context) => {
      if (!applied.has(context.idempotencyKey)) applied.set(context.idempotencyKey, amount);
      return `credited ${amount} ${'(receipt) '.repeat(150)}`;
    },
  });
  return Agent.create({ provider, model: 'm' }).tool(credit).context({ compactAt: 0.5, keepRecent: 1, summarize: false }).build();
}

describe("Keel's tool-call ids", () => {
  for (const id of ['call_0', '']) {
    it(`gives two credits of one run two idempotency keys when the provider sends ${id === '' ? 'no id' : `\`${id}\` in every turn`}`, async () => {
      const applied = new Map<string, number>();
      const provider = repeating(3, id);
      const result = await creditAgent(provider, applied).run('Pay the three credits.');
      expect([...applied.values()]).toEqual([10, 11, 12]);
      const ids = result.toolCalls.map((call) => call.toolCallId);
      expect(new Set(ids).size).toBe(3);
      // The provider's own id is kept beside Keel's, for the wire.
      const kept = result.messages.flatMap((message) => (message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool-call') : []));
      expect(kept.map((part) => part.providerId ?? part.id)).toEqual(id === '' ? expect.any(Array) : [id, id, id]);
    });
  }

  it('clears only the result a compaction means to: the page just fetched is sent whole', async () => {
    const provider = repeating(4, 'call_0');
    await creditAgent(provider, new Map()).run('Pay the four credits.');
    const last = provider.requests.at(-1) as ModelRequest;
    const results = last.messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
    expect(results).toHaveLength(4);
    // The latest result is never cleared; earlier ones may be, each by its own id.
    expect(results.at(-1)?.output).toContain('credited 13');
    expect(results.some((part) => !part.output.includes('credited'))).toBe(true);
  });
});

describe("Keel's ids beside a provider's that look like Keel's", () => {
  const response = (...ids: string[]): ModelResponse => ({ content: ids.map((id, n) => ({ type: 'tool-call' as const, id, name: 'credit', arguments: { amount: n } })), text: '', finishReason: 'tool-calls', usage });
  const idsOf = (given: ModelResponse) => given.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));

  it('never gives a repeated call the id another call of the turn came with (`tc_<n>` from the provider)', () => {
    const kept = new Set(['call_0', 'x', 'y']);
    for (const ids of [['call_0', 'tc_4'], ['tc_4', 'call_0'], ['call_0', 'tc_4', 'call_0'], ['', 'tc_4', '']]) {
      const given = idsOf(withKeelToolCallIds(response(...ids), kept));
      expect(new Set(given).size, ids.join(',')).toBe(given.length);
      for (const id of given) expect(kept.has(id)).toBe(false);
    }
  });
});
