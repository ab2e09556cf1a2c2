import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, tool } from '../../index';
import type { Message, ModelRequest } from '../../index';
import { estimateRequestTokens } from '../../context/estimate-tokens';
import { toolPairingProblems } from '../../context/tool-pairing';
import { scriptedModel } from '../../testing/index';
import { recorder } from '../../testing/event-recorder';
import { prefixBreaks } from '../../testing/prefix-breaks';

const SYSTEM = 'You research a question with the fetch tool, then answer.';
const WINDOW = 32_000;

/** A page of about 3,000 tokens (estimated) naming its step. */
const page = (step: number) => `page ${step}: `.padEnd(10_000, 'lorem ipsum ');

/** A vendor's refusal of a request over its window. */
const overflow = () => Object.assign(new Error('prompt is too long'), { errorKind: 'context-overflow', status: 400, retryable: false });

/** Estimated tokens of a request as it was sent. */
const tokensOf = (request: ModelRequest) => estimateRequestTokens({ system: request.system, tools: request.tools }, request.messages);

describe('a long run in one user turn', () => {
  it('400 tool calls of ~3,000 tokens each under a 32k window complete with rare compactions, each request paired, the task and system prompt kept', async () => {
    const calls = 400;
    let fetched = 0;
    const counted = tool({ name: 'fetch', description: 'Fetch a page', input: Type.Object({ step: Type.Number() }), effect: 'none', execute: async () => page(++fetched) });
    // A vendor that refuses any request over the window (counted as the estimate counts).
    const stopAt = scriptedModel((request) => (tokensOf(request) > WINDOW ? overflow() : fetched >= calls ? 'Done.' : { toolCalls: [{ name: 'fetch', arguments: { step: fetched } }] }), { capabilities: { contextWindow: WINDOW } });
    const summarizer = scriptedModel((request) => `Summary: fetched pages up to ${String(request.messages[0]?.content.length)} characters of transcript; nothing decisive yet.`);
    const events = recorder('context.compacted', 'model.error');
    const agent = events
      .attach(Agent.create({ provider: stopAt, model: 'm', maxSteps: calls + 1 }).system(SYSTEM).tool(counted).context({ summarize: { provider: summarizer, model: 's' } }))
      .build();

    const result = await agent.run('Research the refund policy.');

    expect(result.text).toBe('Done.');
    expect(events.of('model.error')).toEqual([]);
    expect(result.toolCalls).toHaveLength(calls);
    const requests = stopAt.requests;
    const largest = Math.max(...requests.map(tokensOf));
    for (const request of requests) {
      expect(toolPairingProblems(request.messages)).toEqual([]);
      expect(request.system).toBe(SYSTEM);
      expect(request.messages[0]).toEqual({ role: 'user', content: 'Research the refund policy.' });
    }
    const compacted = events.of('context.compacted');
    const steps = compacted.map((event) => event.step);
    const gaps = steps.slice(1).map((step, index) => step - (steps[index] as number));
    const meanGap = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    console.info(`400 calls x ~3,000 tokens, 32k window: ${compacted.length} compactions (${compacted.filter((event) => event.tiers.includes('summary')).length} with a summary), largest request ${largest} tokens (${((largest / WINDOW) * 100).toFixed(1)}% of the window), ${meanGap.toFixed(2)} steps between compactions on average (min ${Math.min(...gaps)}), ${summarizer.calls} summary calls`);
    expect(largest).toBeLessThanOrEqual(WINDOW);
    expect(meanGap).toBeGreaterThanOrEqual(5);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4);
    for (const event of compacted) expect(event.tokensAfter).toBeLessThan(WINDOW * 0.8 * 0.5);
    // The prompt cache breaks only at compactions.
    expect(prefixBreaks(requests).map((index) => index + 1)).toEqual(steps);
    // The compaction the journal writes stays small: markers of results a summary covers are dropped.
    expect(Math.max(...compacted.map((event) => event.clearedResults))).toBeLessThan(60);
  });

  it('a summary that would grow the request is not used: the run completes as it does without compaction', async () => {
    const history: Message[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      { role: 'user', content: `Read this and say ok: ${'word '.repeat(4800)}` },
    ];
    const window = 8000;
    const model = scriptedModel((request) => (tokensOf(request) > window ? overflow() : 'ok'), { capabilities: { contextWindow: window } });
    const summarizer = scriptedModel('The user said hi and the assistant greeted them back warmly. '.repeat(25));
    const events = recorder('context.compacted', 'model.error');
    const before = tokensOf({ model: 'm', messages: history });
    expect(before).toBeGreaterThan(window * 0.8);
    expect(before).toBeLessThan(window);

    const result = await events.attach(Agent.create({ provider: model, model: 'm' }).context({ summarize: { provider: summarizer, model: 's' } })).build().run(history);

    expect(result.text).toBe('ok');
    // "Hello!" is sent in fewer tokens than a summary may take: none is asked for.
    expect(summarizer.calls).toBe(0);
    expect(events.of('model.error')).toEqual([]);
    // Nothing smaller was found: the request went as it was, never larger.
    expect(events.of('context.compacted')).toEqual([]);
    expect(model.requests.map(tokensOf)).toEqual([before]);
  });

  it('a summary longer than the turns it replaces is asked for but not used: the request goes as it was', async () => {
    const history: Message[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'word '.repeat(320) }] },
      { role: 'user', content: `Read this and say ok: ${'word '.repeat(4400)}` },
    ];
    const window = 8000;
    const model = scriptedModel((request) => (tokensOf(request) > window ? overflow() : 'ok'), { capabilities: { contextWindow: window } });
    const summarizer = scriptedModel('The assistant wrote a long reply. '.repeat(120));
    const events = recorder('context.compacted');
    const before = tokensOf({ model: 'm', messages: history });
    expect(before).toBeGreaterThan(window * 0.8);

    const result = await events.attach(Agent.create({ provider: model, model: 'm' }).context({ summarize: { provider: summarizer, model: 's' } })).build().run(history);

    expect(result.text).toBe('ok');
    expect(summarizer.calls).toBe(1);
    expect(events.of('context.compacted')).toEqual([]);
    expect(model.requests.map(tokensOf)).toEqual([before]);
  });
});
