import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, ContextOverflowError, InMemoryStore, ReliabilityFailFastError, tool } from '../../index';
import type { Message, ModelRequest } from '../../index';
import type { ToolMessage } from '@keel/provider';
import { toolPairingProblems } from '../../context/tool-pairing';
import { type ScriptedReply, scriptedModel } from '../../testing/index';
import { recorder } from '../../testing/event-recorder';
import { prefixBreaks } from '../../testing/prefix-breaks';

const SYSTEM = 'You research a question with the fetch tool, then answer.';

/** A page of `chars` characters naming its step. */
const page = (step: number, chars: number) => `page ${step}: `.padEnd(chars, 'lorem ipsum ');

const fetchTool = (chars: number) =>
  tool({ name: 'fetch', description: 'Fetch a page', input: Type.Object({ step: Type.Number() }), execute: async ({ step }) => page(step, chars) });

/** A vendor's refusal of a request that does not fit, as the adapters classify it. */
const refusal = () => Object.assign(new Error('prompt is too long'), { errorKind: 'context-overflow', status: 400, retryable: false });

/** Characters of a request, as a vendor with about 4 characters a token would count them. */
const requestChars = (request: ModelRequest) => (request.system?.length ?? 0) + JSON.stringify(request.messages).length;

/** A model that calls `fetch` for `steps` steps then answers, and refuses any request over `limitChars`. */
function researcher(steps: number, limitChars: number, window?: number) {
  return scriptedModel(
    (request, call): ScriptedReply => {
      if (requestChars(request) > limitChars) return refusal();
      const done = request.messages.filter((message) => message.role === 'tool').length;
      return done >= steps ? 'Done: the answer.' : { toolCalls: [{ name: 'fetch', arguments: { step: call } }] };
    },
    window === undefined ? {} : { capabilities: { contextWindow: window } },
  );
}

describe('compaction in a run', () => {
  it('a 100-step run under a 32k window completes without a refusal; every request pairs calls and results and keeps the system prompt and first message; the prefix breaks only at compactions', async () => {
    const model = researcher(100, 32_000 * 4, 32_000);
    const events = recorder('context.compacted', 'model.error', 'step.start');
    // The researcher cannot summarize (it answers with tool calls): this run clears results only.
    const agent = events.attach(Agent.create({ provider: model, model: 'm', maxSteps: 101 }).system(SYSTEM).tool(fetchTool(8000)).context({ summarize: false })).build();

    const result = await agent.run('Research the refund policy.');

    expect(result.text).toBe('Done: the answer.');
    expect(events.of('model.error')).toEqual([]);
    expect(result.toolCalls).toHaveLength(100);
    // What is kept is every message, whole.
    expect(result.messages.filter((message): message is ToolMessage => message.role === 'tool').every((message) => message.content[0]?.output.length === 8000)).toBe(true);
    for (const request of model.requests) {
      expect(toolPairingProblems(request.messages)).toEqual([]);
      expect(request.system).toBe(SYSTEM);
      expect(request.messages[0]).toEqual({ role: 'user', content: 'Research the refund policy.' });
    }
    const compacted = events.of('context.compacted');
    expect(compacted.length).toBeGreaterThan(3);
    for (const event of compacted) {
      expect(event).toMatchObject({ reason: 'threshold', tier: 'clear-results', contextWindow: 32_000 });
      expect(event.tokensBefore).toBeGreaterThan(32_000 * 0.8);
      expect(event.tokensAfter).toBeLessThanOrEqual(32_000 * 0.5);
    }
    // The cache-breaking points are exactly the compaction steps: request n is step n's.
    expect(prefixBreaks(model.requests).map((index) => index + 1)).toEqual(compacted.map((event) => event.step));
    expect(events.of('step.start')).toHaveLength(101);
  });

  it('a summary replaces older turns when clearing is not enough; its call is counted in usage and dollars', async () => {
    const summarizer = scriptedModel({ text: 'They discussed refunds at length.', usage: { inputTokens: 1000, outputTokens: 50 } });
    const model = scriptedModel({ text: 'x'.repeat(12_000), usage: { inputTokens: 10, outputTokens: 10 } }, { capabilities: { contextWindow: 32_000 } });
    const events = recorder('context.compacted', 'model.response');
    const pricing = { m: { inputPerMTok: 1, outputPerMTok: 1 }, cheap: { inputPerMTok: 1000, outputPerMTok: 1000 } };
    const agent = events.attach(Agent.create({ provider: model, model: 'm', pricing }).context({ summarize: { provider: summarizer, model: 'cheap' } })).build();
    const conversation: Message[] = [{ role: 'user', content: 'Hello' }];
    for (let turn = 1; turn <= 8; turn++) conversation.push({ role: 'assistant', content: [{ type: 'text', text: 'a'.repeat(12_000) }] }, { role: 'user', content: `question ${turn}` });

    const result = await agent.run(conversation);

    expect(events.of('context.compacted')).toMatchObject([{ reason: 'threshold', tier: 'summary' }]);
    const sent = model.requests[0]?.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(['user', 'user', 'user']);
    expect(sent[0]).toEqual({ role: 'user', content: 'Hello' });
    expect(sent[1]?.content).toContain('They discussed refunds at length.');
    expect(sent[2]).toEqual({ role: 'user', content: 'question 8' });
    // The summarizer read the transcript as data; its call is in the ledger and the totals.
    expect(summarizer.requests[0]?.messages[0]?.content).toContain('Transcript to summarize');
    expect(result.attempts.map((attempt) => attempt.purpose)).toEqual(['summary', 'step']);
    expect(result.usage).toMatchObject({ modelCalls: 2, inputTokens: 1010, outputTokens: 60 });
    expect(result.usage.costUsd).toBeCloseTo((1050 * 1000 + 20) / 1e6);
    expect(events.of('model.response').map((event) => event.purpose)).toEqual(['summary', 'step']);
    // What is kept is unchanged.
    expect(result.messages.slice(0, -1)).toEqual(conversation);
  });

  it('summarize: false never makes a summary call; a request nothing can make fit fails before it is sent', async () => {
    const model = scriptedModel('ok', { capabilities: { contextWindow: 32_000 } });
    const conversation: Message[] = [{ role: 'user', content: 'Hello' }];
    for (let turn = 1; turn <= 8; turn++) conversation.push({ role: 'assistant', content: [{ type: 'text', text: 'a'.repeat(12_000) }] }, { role: 'user', content: `question ${turn}` });
    const error = await Agent.create({ provider: model, model: 'm' }).context({ summarize: false }).build().run(conversation).catch((thrown: unknown) => thrown);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ contextWindow: 32_000, compactions: 0, attempts: [] });
    // Never sent: a refusal that could be foreseen is not asked for.
    expect(model.calls).toBe(0);
  });
});

describe('a context-length refusal', () => {
  it('is recovered by one compaction and one retry of the same step, without a known window', async () => {
    // The vendor takes 20,000 characters; the agent does not know its window.
    const model = researcher(6, 20_000);
    const events = recorder('context.compacted', 'step.start', 'model.error');
    const agent = events.attach(Agent.create({ provider: model, model: 'm', maxSteps: 10 }).system(SYSTEM).tool(fetchTool(4000)).context({ summarize: false })).build();

    const result = await agent.run('Research.');

    expect(result.text).toBe('Done: the answer.');
    expect(events.of('model.error').map((event) => event.errorKind)).toEqual(['context-overflow']);
    const [compaction, ...later] = events.of('context.compacted');
    expect(compaction).toMatchObject({ reason: 'overflow', tier: 'clear-results' });
    // Later steps compact before the vendor would refuse again.
    expect(later.map((event) => event.reason)).toEqual(later.map(() => 'threshold'));
    // The refusal showed the window: planned for from then on (one refusal in the whole run).
    expect(compaction?.contextWindow).toBe(compaction?.tokensBefore);
    // The refused step is retried as the same step: 7 steps, 8 model calls.
    expect(result.steps).toHaveLength(7);
    expect(events.of('step.start')).toHaveLength(7);
    expect(result.usage.modelCalls).toBe(8);
    expect(model.requests.slice(-2).every((request) => toolPairingProblems(request.messages).length === 0)).toBe(true);
  });

  it('a second refusal fails with ContextOverflowError, its kind and the token counts', async () => {
    const model = scriptedModel((request) => (request.messages.length > 1 ? refusal() : { toolCalls: [{ name: 'fetch', arguments: { step: 1 } }] }));
    const agent = Agent.create({ provider: model, model: 'm' }).tool(fetchTool(30_000)).context({ keepRecent: 0 }).build();

    const error = await agent.run('Research.').catch((thrown: unknown) => thrown);

    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ errorKind: 'context-overflow', compactions: 1, retryable: false });
    expect((error as ContextOverflowError).estimatedTokens).toBeGreaterThan(0);
    expect((error as ContextOverflowError).attempts.map((attempt) => attempt.errorKind)).toEqual(['ok', 'context-overflow', 'context-overflow']);
    expect(model.calls).toBe(3);
  });

  it('with nothing left to compact, fails at once rather than send the same request again', async () => {
    const model = scriptedModel(refusal());
    const error = await Agent.create({ provider: model, model: 'm' }).build().run('x'.repeat(50)).catch((thrown: unknown) => thrown);
    expect(ContextOverflowError.isInstance(error) && [error.compactions, error.estimatedTokens > 0]).toEqual([0, true]);
    expect(model.calls).toBe(1);
  });

  it('with context(false) or defaults off, fails as the gate stops on it', async () => {
    for (const builder of [Agent.create({ provider: scriptedModel(refusal()), model: 'm' }).context(false), Agent.create({ provider: scriptedModel(refusal()), model: 'm' }).reliability({ defaults: false })]) {
      const error = await builder.build().run('hi').catch((thrown: unknown) => thrown);
      expect(ReliabilityFailFastError.isInstance(error) && error.errorKind).toBe('context-overflow');
    }
  });
});

describe('compaction and memory', () => {
  const run = async (persist: boolean) => {
    const memory = new InMemoryStore();
    const model = researcher(12, 1e9, 16_000);
    const agent = Agent.create({ provider: model, model: 'm', maxSteps: 20 }).tool(fetchTool(6000)).memory(memory).context({ persist, summarize: false }).build();
    await agent.run('Research.', { conversationId: 'c' });
    return memory.load('c');
  };

  it('memory keeps every message whole: compaction changes what is sent, not what is stored', async () => {
    const stored = await run(false);
    const results = stored.filter((message): message is ToolMessage => message.role === 'tool');
    expect(results).toHaveLength(12);
    expect(results.every((message) => message.content[0]?.output.length === 6000)).toBe(true);
  });

  it('with persist: true, memory keeps the compacted history: cleared results as their markers', async () => {
    const stored = await run(true);
    const outputs = stored.filter((message): message is ToolMessage => message.role === 'tool').map((message) => message.content[0]?.output ?? '');
    expect(outputs).toHaveLength(12);
    expect(outputs.filter((output) => /^\[(results? cleared to save context|cleared: see call)/.test(output)).length).toBeGreaterThan(0);
    expect(toolPairingProblems(stored)).toEqual([]);
  });

  it('with persist: true, memory keeps the summary instead of the turns it replaced', async () => {
    const memory = new InMemoryStore();
    const model = scriptedModel('ok', { capabilities: { contextWindow: 32_000 } });
    const summarizer = scriptedModel('The summary.');
    const agent = Agent.create({ provider: model, model: 'm' }).memory(memory).context({ persist: true, summarize: { provider: summarizer, model: 's' } }).build();
    const conversation: Message[] = [{ role: 'user', content: 'Hello' }];
    for (let turn = 1; turn <= 8; turn++) conversation.push({ role: 'assistant', content: [{ type: 'text', text: 'a'.repeat(12_000) }] }, { role: 'user', content: `question ${turn}` });
    await agent.run(conversation, { conversationId: 'c' });
    const stored = await memory.load('c');
    expect(stored.map((message) => message.role)).toEqual(['user', 'user', 'user', 'assistant']);
    expect(stored[1]?.content).toContain('The summary.');
  });
});

describe('context options', () => {
  it('are checked at build', () => {
    const base = () => Agent.create({ provider: scriptedModel('ok'), model: 'm' });
    expect(() => base().context({ compactAt: 0 }).build()).toThrow(AgentConfigurationError);
    expect(() => base().context({ compactAt: 1.5 }).build()).toThrow(/context.compactAt/);
    expect(() => base().context({ keepRecent: -1 }).build()).toThrow(/context.keepRecent/);
    expect(() => base().context({ contextWindow: 0.5 }).build()).toThrow(/context.contextWindow/);
    expect(() => base().context({ summarize: { provider: {} as never, model: 'x' } }).build()).toThrow(/context.summarize/);
    expect(() => base().context({}).context({}).build()).toThrow(/context/);
  });
});
