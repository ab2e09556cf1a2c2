import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { tokenBudget } from '@keel/reliability';
import { Agent, ReliabilityFailFastError, tool } from '../../index';
import type { Message } from '../../index';
import { scriptedModel } from '../../testing/index';
import { recorder } from '../../testing/event-recorder';

const WINDOW = 32_000;

/** A conversation of `turns` long assistant answers: close to the window, so one more page passes `compactAt`. */
function longConversation(turns: number): Message[] {
  const conversation: Message[] = [{ role: 'user', content: 'Hello' }];
  for (let turn = 1; turn <= turns; turn++) conversation.push({ role: 'assistant', content: [{ type: 'text', text: 'a'.repeat(12_000) }] }, { role: 'user', content: `question ${turn}` });
  return conversation;
}

const fetchPage = tool({ name: 'fetch', description: 'Fetch a page', input: Type.Object({}), execute: async () => 'p'.repeat(12_000) });

/** Calls `fetch` once (reporting `inputTokens`), then answers. */
function pageThenAnswer(inputTokens: number) {
  return scriptedModel(
    (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { text: 'Done.', usage: { inputTokens: 10, outputTokens: 10 } }
        : { toolCalls: [{ name: 'fetch', arguments: {} }], usage: { inputTokens, outputTokens: 10 } },
    { capabilities: { contextWindow: WINDOW } },
  );
}

describe("a compaction's summary call", () => {
  it('is stopped by the run\'s PreCheck budget before it is sent, as any call: the run ends, the summarizer is never asked', async () => {
    const summarizer = scriptedModel('They discussed refunds.');
    const events = recorder('context.compacted');
    const agent = events
      .attach(Agent.create({ provider: pageThenAnswer(5_000), model: 'm' }).tool(fetchPage).context({ summarize: { provider: summarizer, model: 'cheap' } }).reliability({ preCheck: [tokenBudget(1_000)] }))
      .build();

    const error = await agent.run(longConversation(6)).catch((caught: unknown) => caught);

    expect(ReliabilityFailFastError.isInstance(error) && error.phase).toBe('pre-check');
    expect(summarizer.requests).toHaveLength(0);
  });

  it('retries a transient failure of the summarizer and uses the summary', async () => {
    const overloaded = () => Object.assign(new Error('overloaded'), { errorKind: 'server-error', status: 529, retryable: true, retryAfterMs: 1 });
    const summarizer = scriptedModel([overloaded(), 'They discussed refunds.']);
    const events = recorder('context.compacted', 'model.error');
    const agent = events.attach(Agent.create({ provider: pageThenAnswer(100), model: 'm' }).tool(fetchPage).context({ summarize: { provider: summarizer, model: 'cheap' } })).build();

    const result = await agent.run(longConversation(6));

    expect(result.text).toBe('Done.');
    expect(summarizer.requests).toHaveLength(2);
    expect(events.of('context.compacted').at(-1)).toMatchObject({ tier: 'summary' });
    expect(events.of('model.error')).toMatchObject([{ purpose: 'summary', errorKind: 'server-error' }]);
    expect(result.attempts.filter((attempt) => attempt.purpose === 'summary').map((attempt) => attempt.errorKind)).toEqual(['server-error', 'ok']);
  });

  it('leaves the compaction without a summary when the summarizer fails for good, and the run goes on', async () => {
    const refused = () => Object.assign(new Error('invalid x-api-key'), { errorKind: 'auth', status: 401, retryable: false });
    const summarizer = scriptedModel([refused()]);
    const events = recorder('context.compacted');
    const agent = events.attach(Agent.create({ provider: pageThenAnswer(100), model: 'm' }).tool(fetchPage).context({ summarize: { provider: summarizer, model: 'cheap' } })).build();

    const result = await agent.run(longConversation(6));

    expect(result.text).toBe('Done.');
    expect(summarizer.requests).toHaveLength(1);
    expect(events.of('context.compacted').every((event) => event.tier !== 'summary')).toBe(true);
  });
});
