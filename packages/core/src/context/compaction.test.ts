import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, ToolMessage } from '@keel/provider';
import { type Compaction, compactedView, NO_COMPACTION } from './compaction';
import { estimateRequestTokens } from './estimate-tokens';
import { type CompactionLimits, planCompaction } from './plan-compaction';
import { toolPairingProblems } from './tool-pairing';

const FRAME = { system: 'You research refunds.', tools: [{ name: 'search', description: 'Search the web', inputSchema: { type: 'object' } }] };

/** One tool step: the call and its result of `size` characters. */
function toolStep(id: string, query: string, output: string): [AssistantMessage, ToolMessage] {
  return [
    { role: 'assistant', content: [{ type: 'tool-call', id, name: 'search', arguments: { q: query } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'search', output, isError: false }] },
  ];
}

const LIMITS: CompactionLimits = { window: 32_000, compactAt: 0.8, target: 0.5, keepRecent: 3 };

describe('planCompaction', () => {
  it('does nothing while the request fits under compactAt', () => {
    const messages: Message[] = [{ role: 'user', content: 'Find the refund policy.' }, ...toolStep('c1', 'refund', 'x'.repeat(1000))];
    expect(planCompaction(FRAME, messages, NO_COMPACTION, LIMITS)).toBeUndefined();
  });

  it('clears the oldest tool results down to the target, keeping the latest ones, each call with its result', () => {
    const messages: Message[] = [{ role: 'user', content: 'Find the refund policy.' }];
    for (let step = 1; step <= 20; step++) messages.push(...toolStep(`c${step}`, `page ${step}`, `${step}:`.padEnd(6000, 'r')));
    const plan = planCompaction(FRAME, messages, NO_COMPACTION, LIMITS);
    expect(plan?.tiers).toEqual(['clear-results']);
    const view = compactedView(messages, plan?.compaction ?? NO_COMPACTION);
    expect(estimateRequestTokens(FRAME, view)).toBeLessThanOrEqual(LIMITS.window * LIMITS.target);
    expect(plan?.tokensAfter).toBe(estimateRequestTokens(FRAME, view));
    expect(toolPairingProblems(view)).toEqual([]);
    expect(view[0]).toEqual(messages[0]);
    // The three latest results are whole; the oldest is a marker naming its call and size.
    expect(view.slice(-6).filter((message) => message.role === 'tool').map((message) => (message as ToolMessage).content[0]?.output.length)).toEqual([6000, 6000, 6000]);
    // The cleared results collapse: one marker on the first names every call of the run, the others point to it.
    const cleared = Object.keys(plan?.compaction.cleared ?? {});
    expect((view[2] as ToolMessage).content[0]?.output).toBe(`[results cleared to save context: ${cleared.length} calls of search (calls ${cleared.join(', ')}), ${cleared.length * 6000} characters in all. Call the tools again if you need them.]`);
    expect((view[4] as ToolMessage).content[0]?.output).toBe('[cleared: see call c1]');
  });

  it('sends an older repeated read as a marker naming the later call first', () => {
    const messages: Message[] = [{ role: 'user', content: 'Watch the file.' }];
    for (let step = 1; step <= 12; step++) messages.push(...toolStep(`c${step}`, step % 2 ? 'same' : `other ${step}`, step % 2 ? 'S'.repeat(9000) : `${step}`.padEnd(9000, 'o')));
    const plan = planCompaction(FRAME, messages, NO_COMPACTION, LIMITS);
    expect(plan?.tiers[0]).toBe('drop-repeats');
    // The marker names the latest call, whose result is kept.
    expect(plan?.compaction.cleared['c1']).toContain('returned the same 9000 characters as its later call c11');
  });

  it('names the stretch to summarize when clearing is not enough: up to the last user message, never the first one', () => {
    const messages: Message[] = [{ role: 'user', content: 'Hello' }];
    for (let turn = 1; turn <= 8; turn++) messages.push({ role: 'assistant', content: [{ type: 'text', text: 'a'.repeat(12_000) }] }, { role: 'user', content: `question ${turn}` });
    const plan = planCompaction(FRAME, messages, NO_COMPACTION, LIMITS);
    expect(plan?.summarize?.through).toBe(messages.length - 1);
    const view = compactedView(messages, { ...(plan?.compaction ?? NO_COMPACTION), summary: { text: 'They talked.', through: plan?.summarize?.through ?? 0 } });
    expect(view.map((message) => message.role)).toEqual(['user', 'user', 'user']);
    expect(view[0]).toEqual(messages[0]);
    expect(view[2]).toEqual(messages.at(-1));
  });

  it('keeps the prefix of every request between compactions: a request extends the one before', () => {
    const messages: Message[] = [{ role: 'user', content: 'Research.' }];
    let compaction: Compaction = NO_COMPACTION;
    let previous: string[] = [];
    const breaks: number[] = [];
    for (let step = 1; step <= 100; step++) {
      const plan = planCompaction(FRAME, messages, compaction, LIMITS);
      if (plan) {
        compaction = plan.compaction;
        breaks.push(step);
      }
      const request = compactedView(messages, compaction).map((message) => JSON.stringify(message));
      const extendsPrevious = previous.every((message, index) => request[index] === message);
      if (!plan) expect(extendsPrevious).toBe(true);
      previous = request;
      messages.push(...toolStep(`c${step}`, `q${step}`, `${step}`.padEnd(6000, 'd')));
    }
    // A compaction removes a large share at once (down to half the window, from 80%): at 2,000
    // tokens a step, the next one comes no sooner than 4 steps later.
    expect(breaks.length).toBeGreaterThan(0);
    const gaps = breaks.slice(1).map((step, index) => step - (breaks[index] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4);
  });
});

/** A random history: a system prompt, the first user message, tool steps with 1–3 parallel calls, other user turns. */
const history = fc
  .array(
    fc.oneof(
      { arbitrary: fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 3 }).map((sizes) => ({ type: 'tools' as const, sizes })), weight: 4 },
      { arbitrary: fc.integer({ min: 1, max: 4000 }).map((size) => ({ type: 'user' as const, size })), weight: 1 },
      { arbitrary: fc.integer({ min: 1, max: 4000 }).map((size) => ({ type: 'reply' as const, size })), weight: 1 },
    ),
    { maxLength: 60 },
  )
  .map((turns) => {
    const messages: Message[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'First question' }];
    let id = 0;
    for (const turn of turns) {
      if (turn.type === 'user') messages.push({ role: 'user', content: 'u'.repeat(turn.size) });
      else if (turn.type === 'reply') messages.push({ role: 'assistant', content: [{ type: 'text', text: 'r'.repeat(turn.size) }] });
      else {
        const ids = turn.sizes.map(() => `call_${++id}`);
        messages.push({ role: 'assistant', content: ids.map((callId, index) => ({ type: 'tool-call', id: callId, name: index % 2 ? 'read' : 'search', arguments: { n: index % 2 } })) });
        messages.push({ role: 'tool', content: ids.map((callId, index) => ({ type: 'tool-result', toolCallId: callId, toolName: index % 2 ? 'read' : 'search', output: 'o'.repeat(turn.sizes[index] ?? 0), isError: false })) });
      }
    }
    return messages;
  });

describe('compaction over random histories', () => {
  it('never splits a call from its result and always sends the system prompt and the first user message (1,000 histories)', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 2_000, max: 64_000 }), fc.integer({ min: 0, max: 5 }), (messages, window, keepRecent) => {
        const plan = planCompaction(FRAME, messages, NO_COMPACTION, { window, compactAt: 0.8, target: 0.5, keepRecent });
        let compaction = plan?.compaction ?? NO_COMPACTION;
        if (plan?.summarize) compaction = { ...compaction, summary: { text: 'summary', through: plan.summarize.through } };
        const view = compactedView(messages, compaction);
        expect(toolPairingProblems(view)).toEqual([]);
        expect(view[0]).toEqual(messages[0]);
        expect(view[1]).toEqual(messages[1]);
        // Everything from the summary's end on is sent, bodies aside; before it, only the system prompt, the first message and the summary.
        const through = compaction.summary?.through ?? 2;
        expect(view.slice(view.length - (messages.length - through)).map((message) => message.role)).toEqual(messages.slice(through).map((message) => message.role));
        expect(view.length).toBe(messages.length - through + (compaction.summary ? 3 : 2));
      }),
      { numRuns: 1000 },
    );
  });
});
