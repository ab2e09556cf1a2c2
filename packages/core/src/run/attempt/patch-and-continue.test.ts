import { tokenBudget } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { AbortedError, Agent, AgentConfigurationError, type Message, type ModelRequest, ReliabilityFailFastError, tool } from '../../index';
import { type Script, scriptedModel, asComplete } from '../../testing/index';
import { BAD_PRICE, GOOD, GOOD_TEXT, Item, Order } from '../order-fixture';

function agentOf(script: Script, options: Parameters<ReturnType<typeof Agent.create>['outputSchema']>[1] = {}, create: Partial<Parameters<typeof Agent.create>[0]> = {}) {
  const model = scriptedModel(script);
  const agent = Agent.create({ provider: model, model: 'm', ...create }).outputSchema(Order, options).build();
  return { model, agent };
}

const lastUser = (request: ModelRequest | undefined) => {
  const last = request?.messages[request.messages.length - 1] as Message | undefined;
  return last?.role === 'user' ? last.content : '';
};

describe('patch re-asks', () => {
  it('asks a large answer with one bad field for only that value, applies the patch and validates the whole', async () => {
    const { model, agent } = agentOf([BAD_PRICE, '{"items[17].price": 14.25}']);
    const result = asComplete(await agent.run('extract'));
    expect(result.value).toEqual(GOOD);
    const feedback = lastUser(model.requests[1]);
    expect(feedback).toContain('Reply with only the corrected values');
    expect(feedback).toContain('"items[17].price"');
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'patch']);
    // The kept answer is the whole value, not the patch.
    const kept = result.messages[result.messages.length - 1];
    expect(kept?.role === 'assistant' && JSON.parse((kept.content[0] as { text: string }).text)).toEqual(GOOD);
  });

  it('takes a complete value sent instead of a patch', async () => {
    const { agent } = agentOf([BAD_PRICE, GOOD_TEXT]);
    const result = asComplete(await agent.run('extract'));
    expect(result.value).toEqual(GOOD);
    expect(result.attempts[1]?.via).toBeUndefined();
  });

  it('refuses a patch that sets a path the feedback did not name, and asks again', async () => {
    const { model, agent } = agentOf([BAD_PRICE, '{"items[17].price": 14.25, "items[3].price": 0}', GOOD_TEXT]);
    const result = asComplete(await agent.run('extract'));
    expect(result.value).toEqual(GOOD);
    expect(model.calls).toBe(3);
    expect(lastUser(model.requests[2])).toContain('which the feedback did not name');
    expect(result.attempts[1]?.errorKind).toBe('parse-fail');
  });

  it('refuses a patch reply with two values (a guess either way); the next re-ask asks for the whole value', async () => {
    const { model, agent } = agentOf([BAD_PRICE, 'Fixed: {"items[17].price": 14.25} or maybe {"items[17].price": 15}', GOOD_TEXT]);
    const result = asComplete(await agent.run('extract'));
    expect(result.value).toEqual(GOOD);
    expect(model.calls).toBe(3);
    expect(lastUser(model.requests[2])).not.toContain('Reply with only the corrected values');
  });

  it('takes a patch with prose and a fence around it', async () => {
    const { agent } = agentOf([BAD_PRICE, 'Here is the correction:\n```json\n{"items[17].price": 14.25}\n```']);
    expect(asComplete(await agent.run('extract')).value).toEqual(GOOD);
  });

  it('re-asks with a patch request again when the patched whole still has an issue', async () => {
    const twoBad = JSON.parse(BAD_PRICE) as { items: Record<string, unknown>[] };
    (twoBad.items[20] as Record<string, unknown>).qty = 'three';
    const { model, agent } = agentOf([JSON.stringify(twoBad), '{"items[17].price": 14.25, "items[20].qty": 3.5}', '{"items[20].qty": 1}']);
    const result = asComplete(await agent.run('extract'));
    expect(result.value).toEqual(GOOD);
    expect(lastUser(model.requests[2])).toContain('Paths you may set (quoted data): "items[20].qty".');
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'patch', 'patch']);
  });

  it('stops a patch that repeats the same mistake (stuck detection applies)', async () => {
    const { model, agent } = agentOf([BAD_PRICE, '{"items[17].price": "14.25 EUR"}', '{"items[17].price": 14.25}']);
    const error = await agent.run('extract').catch((thrown: unknown) => thrown);
    expect((error as ReliabilityFailFastError).kind).toBe('schema-stuck-loop');
    expect(model.calls).toBe(2);
  });

  it('asks for the whole value of a small answer, and when patch is off', async () => {
    const small = agentOf(['{"customer":"x","items":[{"sku":"a","qty":1,"price":"x"}]}', '{"customer":"x","items":[{"sku":"a","qty":1,"price":1}]}']);
    await small.agent.run('extract');
    expect(lastUser(small.model.requests[1])).not.toContain('Reply with only the corrected values');
    const off = agentOf([BAD_PRICE, GOOD_TEXT], { patch: false });
    await off.agent.run('extract');
    expect(lastUser(off.model.requests[1])).not.toContain('Reply with only the corrected values');
    const lower = agentOf(['{"customer":"x","items":[{"sku":"a","qty":1,"price":"x"}]}', '{"items[0].price": 1}'], { patch: { minTokens: 1 } });
    expect(asComplete(await lower.agent.run('extract')).value).toEqual({ customer: 'x', items: [{ sku: 'a', qty: 1, price: 1 }] });
  });

  it('never lets a patch-shaped reply through as a complete value of a lenient schema', async () => {
    const Loose = Type.Object({ customer: Type.Optional(Type.String()), items: Type.Optional(Type.Array(Item)) });
    const model = scriptedModel([BAD_PRICE, '{"items[17].price": 14.25, "customer": "Someone else"}', GOOD_TEXT]);
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).outputSchema(Loose).build().run('extract'));
    // The second reply holds a named path and a key that was not asked for: refused, never a value.
    expect(result.value).toEqual(GOOD);
    expect(model.calls).toBe(3);
  });

  it('refuses patch and continuation options of the wrong type at build', () => {
    const model = scriptedModel('x');
    expect(() => Agent.create({ provider: model, model: 'm' }).outputSchema(Order, { patch: { minTokens: 0 } }).build()).toThrow(AgentConfigurationError);
    expect(() => Agent.create({ provider: model, model: 'm' }).outputSchema(Order, { continuation: { maxContinuations: -1 } }).build()).toThrow(AgentConfigurationError);
    expect(() => Agent.create({ provider: model, model: 'm' }).outputSchema(Order, { continuation: 'yes' as never }).build()).toThrow(AgentConfigurationError);
  });
});

/** A model whose replies are cut at `cut` characters of `full`, continuing where `continueFrom` ends. */
function cuttingModel(full: string, cut: number, options: { repeat?: number; cutEvery?: boolean } = {}) {
  return (request: ModelRequest) => {
    const from = request.continueFrom;
    const start = from === undefined ? 0 : Math.max(0, from.length - (options.repeat ?? 0));
    if (from !== undefined && !full.startsWith(from)) return { text: 'lost', finishReason: 'stop' as const };
    const end = from === undefined || options.cutEvery ? Math.min(full.length, start + cut) : full.length;
    return { text: full.slice(start, end), finishReason: end < full.length ? ('length' as const) : ('stop' as const) };
  };
}

describe('continuation of a cut answer', () => {
  it('continues an answer cut at the token limit and validates the joined text as one reply', async () => {
    const { model, agent } = agentOf(cuttingModel(GOOD_TEXT, 2000));
    const result = asComplete(await agent.run('extract'));
    expect(result.value).toEqual(GOOD);
    expect(model.requests[1]?.continueFrom).toBe(GOOD_TEXT.slice(0, 2000).trimEnd());
    expect(result.attempts.map((attempt) => [attempt.errorKind, attempt.via])).toEqual([['truncated', undefined], ['ok', 'continuation']]);
    expect(result.text).toBe(GOOD_TEXT);
  });

  it('takes a whole new answer from a provider that ignores continueFrom', async () => {
    const compact = JSON.stringify(GOOD);
    const { model, agent } = agentOf((request: ModelRequest, call: number) => (call === 1 ? { text: GOOD_TEXT.slice(0, 2000), finishReason: 'length' as const } : compact));
    const result = asComplete(await agent.run('extract'));
    expect(result.value).toEqual(GOOD);
    expect(model.calls).toBe(2);
  });

  it('removes what the continuation repeats', async () => {
    const { agent } = agentOf(cuttingModel(GOOD_TEXT, 2000, { repeat: 120 }));
    expect(asComplete(await agent.run('extract')).value).toEqual(GOOD);
  });

  it('continues a continuation that is cut too, and stops as truncated past maxContinuations', async () => {
    const { model, agent } = agentOf(cuttingModel(GOOD_TEXT, Math.ceil(GOOD_TEXT.length / 3), { cutEvery: true }));
    const result = asComplete(await agent.run('extract'));
    expect(result.value).toEqual(GOOD);
    expect(model.calls).toBe(3);
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'continuation', 'continuation']);
    const stuck = agentOf(cuttingModel(GOOD_TEXT, 100, { cutEvery: true }));
    const error = await stuck.agent.run('extract').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).errorKind).toBe('truncated');
    expect(stuck.model.calls).toBe(3);
  });

  it('fails fast as truncated with continuation off', async () => {
    const { model, agent } = agentOf(cuttingModel(GOOD_TEXT, 2000), { continuation: false });
    const error = await agent.run('extract').catch((thrown: unknown) => thrown);
    expect((error as ReliabilityFailFastError).errorKind).toBe('truncated');
    expect(model.calls).toBe(1);
  });

  it('sends the continuation maxTokens and trims trailing whitespace from the partial', async () => {
    const cut = GOOD_TEXT.indexOf('\n', 500) + 3;
    const { model, agent } = agentOf(cuttingModel(GOOD_TEXT, cut), { continuation: { maxTokens: 9000 } }, { maxTokens: 500 });
    expect(asComplete(await agent.run('extract')).value).toEqual(GOOD);
    expect(model.requests[0]?.maxTokens).toBe(500);
    expect(model.requests[1]?.maxTokens).toBe(9000);
    expect(model.requests[1]?.continueFrom?.endsWith(' ')).toBe(false);
  });
});

describe('continuation of a cut answer', () => {
  it('stops continuing when a budget runs out', async () => {
    const model = scriptedModel(cuttingModel(GOOD_TEXT, 200, { cutEvery: true }));
    const budgeted = Agent.create({ provider: model, model: 'm', maxAttempts: 50 })
      .outputSchema(Order, { continuation: { maxContinuations: 50 } })
      .reliability({ preCheck: [tokenBudget(400)] })
      .build();
    const error = await budgeted.run('extract').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).kind).toBe('token-budget');
    expect(model.calls).toBeLessThan(10);
  });

  it('ends at maxAttempts even within maxContinuations, and an abort reaches the continuation call', async () => {
    const capped = scriptedModel(cuttingModel(GOOD_TEXT, 100, { cutEvery: true }));
    const error = await Agent.create({ provider: capped, model: 'm', maxAttempts: 2 })
      .outputSchema(Order, { continuation: { maxContinuations: 10 } })
      .build()
      .run('extract')
      .catch((thrown: unknown) => thrown);
    expect((error as ReliabilityFailFastError).kind).toBe('loop-cap');
    expect(capped.calls).toBe(2);
    const controller = new AbortController();
    const slow = scriptedModel((request) => {
      if (request.continueFrom === undefined) return { text: GOOD_TEXT.slice(0, 500), finishReason: 'length' };
      setTimeout(() => controller.abort(), 5);
      return { text: GOOD_TEXT.slice(500), delayMs: 10_000 };
    });
    const aborted = await Agent.create({ provider: slow, model: 'm' }).outputSchema(Order).build().run('extract', { signal: controller.signal }).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(aborted)).toBe(true);
  });

  it('shows the joined answer once in a buffered stream', async () => {
    const model = scriptedModel(cuttingModel(GOOD_TEXT, 2000, { repeat: 50 }));
    const stream = Agent.create({ provider: model, model: 'm' }).outputSchema(Order).build().stream('extract');
    let text = '';
    for await (const part of stream) if (part.type === 'text-delta') text += part.text;
    expect(JSON.parse(text)).toEqual(GOOD);
    expect((await stream.result).text).toBe(GOOD_TEXT);
  });

  it('refuses a join that reads as different values instead of guessing', async () => {
    const Note = Type.Object({ note: Type.String() });
    const model = scriptedModel([{ text: '{"note": "aaaaaaaaa', finishReason: 'length' }, 'aaaaaaaaa"}', '{"note": "x"}']);
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).outputSchema(Note).build().run('go'));
    expect(result.value).toEqual({ note: 'x' });
    expect(result.attempts[1]?.errorKind).toBe('parse-fail');
  });

  it('streams the continuation after the cut part, and the result holds the whole answer', async () => {
    const model = scriptedModel(cuttingModel(GOOD_TEXT, 2000));
    const stream = Agent.create({ provider: model, model: 'm' }).outputSchema(Order).build().stream('extract', { textMode: 'pass-through' });
    let text = '';
    for await (const part of stream) if (part.type === 'text-delta') text += part.text;
    expect(text).toBe(GOOD_TEXT);
    expect(asComplete(await stream.result).value).toEqual(GOOD);
  });
});

describe('patch re-asks of large tool arguments', () => {
  const saveOrder = (received: unknown[]) =>
    tool({
      name: 'save_order',
      description: 'saves an order',
      input: Order,
      execute: (input) => {
        received.push(input);
        return 'saved';
      },
    });
  const badArguments = JSON.parse(BAD_PRICE) as unknown;

  it('asks for only the bad argument, and the tool receives the patched whole input', async () => {
    const received: unknown[] = [];
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'save_order', arguments: badArguments }] },
      { toolCalls: [{ id: 'c2', name: 'save_order', arguments: { 'items[17].price': 14.25 } }] },
      'done',
    ]);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(saveOrder(received)).build().run('save it');
    expect(received).toEqual([GOOD]);
    const reAsk = model.requests[1];
    const feedback = reAsk?.messages[reAsk.messages.length - 1];
    expect(JSON.stringify(feedback)).toContain('Call \\"save_order\\" again with only the corrected values');
    expect(result.attempts.find((attempt) => attempt.purpose === 'tool-re-ask')?.via).toBe('patch');
  });

  it('refuses a patch of arguments that sets a path that was not named', async () => {
    const received: unknown[] = [];
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'save_order', arguments: badArguments }] },
      { toolCalls: [{ id: 'c2', name: 'save_order', arguments: { 'items[17].price': 14.25, customer: 'Mallory' } }] },
      { toolCalls: [{ id: 'c3', name: 'save_order', arguments: GOOD }] },
      'done',
    ]);
    await Agent.create({ provider: model, model: 'm' }).tool(saveOrder(received)).build().run('save it');
    expect(received).toEqual([GOOD]);
    expect(model.calls).toBe(4);
  });
});

describe('continuation of tool arguments cut at the token limit', () => {
  const argumentsText = JSON.stringify(GOOD, null, 2);
  const cut = argumentsText.slice(0, 3000);

  it('continues the cut arguments as text, and the tool receives the joined input', async () => {
    const received: unknown[] = [];
    const save = tool({ name: 'save_order', description: 'saves an order', input: Order, execute: (input) => {
        received.push(input);
        return 'saved';
      },
    });
    const model = scriptedModel((request, call) => {
      if (call === 1) return { toolCalls: [{ id: 'c1', name: 'save_order', arguments: cut }], finishReason: 'length' };
      if (request.continueFrom !== undefined) return argumentsText.slice(request.continueFrom.length);
      return 'done';
    });
    const result = await Agent.create({ provider: model, model: 'm' }).tool(save).build().run('save it');
    expect(received).toEqual([GOOD]);
    expect(model.requests[1]?.continueFrom).toBe(cut.trimEnd());
    expect(model.requests[1]?.toolChoice).toEqual({ type: 'none' });
    expect(result.attempts.find((attempt) => attempt.purpose === 'tool-re-ask')?.via).toBe('continuation');
  });

  it('continues a cut continuation, and re-asks as before with continuation off', async () => {
    const received: unknown[] = [];
    const save = tool({ name: 'save_order', description: 'saves an order', input: Order, execute: (input) => {
        received.push(input);
        return 'saved';
      },
    });
    const model = scriptedModel((request, call) => {
      if (call === 1) return { toolCalls: [{ id: 'c1', name: 'save_order', arguments: argumentsText.slice(0, 2000) }], finishReason: 'length' };
      if (request.continueFrom !== undefined) {
        const end = Math.min(argumentsText.length, request.continueFrom.length + 3500);
        return { text: argumentsText.slice(request.continueFrom.length, end), finishReason: end < argumentsText.length ? 'length' : 'stop' };
      }
      return 'done';
    });
    await Agent.create({ provider: model, model: 'm' }).tool(save).build().run('save it');
    expect(received).toEqual([GOOD]);
    expect(model.calls).toBe(4);
    const off = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'save_order', arguments: cut }], finishReason: 'length' }, { toolCalls: [{ id: 'c2', name: 'save_order', arguments: GOOD }] }, 'done']);
    await Agent.create({ provider: off, model: 'm' }).tool(save).outputSchema(Type.String(), { continuation: false }).build().run('save it');
    expect(off.requests[1]?.continueFrom).toBeUndefined();
  });

  it('re-asks the whole arguments when every continuation is cut', async () => {
    const received: unknown[] = [];
    const save = tool({ name: 'save_order', description: 'saves an order', input: Order, execute: (input) => {
        received.push(input);
        return 'saved';
      },
    });
    let full = 0;
    const model = scriptedModel((request, call) => {
      if (call === 1) return { toolCalls: [{ id: 'c1', name: 'save_order', arguments: argumentsText.slice(0, 1000) }], finishReason: 'length' };
      if (request.continueFrom !== undefined) return { text: argumentsText.slice(request.continueFrom.length, request.continueFrom.length + 500), finishReason: 'length' };
      if (full++ === 0) return { toolCalls: [{ id: 'c2', name: 'save_order', arguments: GOOD }] };
      return 'done';
    });
    await Agent.create({ provider: model, model: 'm' }).tool(save).build().run('save it');
    expect(received).toEqual([GOOD]);
    // The step, two continuations (the bound), then a re-ask with feedback, then the final answer.
    expect(model.calls).toBe(5);
  });
});
