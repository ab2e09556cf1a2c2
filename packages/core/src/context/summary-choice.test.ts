import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, ToolMessage } from '@keel/provider';
import { compactedView, NO_COMPACTION } from './compaction';
import { estimateRequestTokens } from './estimate-tokens';
import { planCompaction, summaryEnd } from './plan-compaction';
import { withSummary } from './summary-choice';
import { toolPairingProblems } from './tool-pairing';

const FRAME = { system: 'You research refunds.', tools: [{ name: 'search', description: 'Search the web', inputSchema: { type: 'object' } }] };

function toolStep(id: string, output: string): [AssistantMessage, ToolMessage] {
  return [
    { role: 'assistant', content: [{ type: 'tool-call', id, name: 'search', arguments: { q: id } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'search', output, isError: false }] },
  ];
}

describe('a summary inside one user turn', () => {
  it('ends at the turn of the keepRecent-th latest result: older tool turns are summarized whole, the task and the latest turns kept', () => {
    const messages: Message[] = [{ role: 'user', content: 'Research refunds.' }];
    for (let step = 1; step <= 12; step++) messages.push(...toolStep(`c${step}`, 'r'.repeat(12_000)));
    const through = summaryEnd(messages, 0, 3);
    expect(through).toBe(messages.length - 6);
    expect(messages[through as number]?.role).toBe('assistant');
    const plan = planCompaction(FRAME, messages, NO_COMPACTION, { window: 32_000, compactAt: 0.8, target: 0.32, keepRecent: 3 });
    expect(plan?.summarize?.through).toBe(through);
    const summarized = withSummary(FRAME, messages, plan?.compaction ?? NO_COMPACTION, 'Nine searches found nothing.', through as number);
    const view = compactedView(messages, summarized ?? NO_COMPACTION);
    expect(view.map((message) => message.role)).toEqual(['user', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
    expect(view[0]).toEqual(messages[0]);
    expect(toolPairingProblems(view)).toEqual([]);
    // The markers of results the summary covers are dropped: the compaction stays small.
    expect(Object.keys(summarized?.cleared ?? {})).toEqual([]);
  });

  it('keeps the last user message when the turn since it is short (a conversation of several turns)', () => {
    const messages: Message[] = [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [{ type: 'text', text: 'a'.repeat(9000) }] }, { role: 'user', content: 'Now search.' }, ...toolStep('c1', 'x')];
    expect(summaryEnd(messages, 0, 3)).toBe(2);
  });
});

describe('a summary that would not make the request smaller', () => {
  it('is not used: a 400-token summary never replaces a 2-token "Hello!"', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      { role: 'user', content: `Read this: ${'word '.repeat(7000)}` },
    ];
    const plan = planCompaction(FRAME, messages, NO_COMPACTION, { window: 8000, compactAt: 0.8, target: 0.32, keepRecent: 3 });
    expect(plan?.summarize?.through).toBe(2);
    const before = estimateRequestTokens(FRAME, compactedView(messages, NO_COMPACTION));
    const longSummary = 'The user greeted the assistant and the assistant answered. '.repeat(20);
    expect(withSummary(FRAME, messages, plan?.compaction ?? NO_COMPACTION, longSummary, 2)).toBeUndefined();
    expect(estimateRequestTokens(FRAME, compactedView(messages, plan?.compaction ?? NO_COMPACTION))).toBeLessThanOrEqual(before);
  });
});

/** A random run in one user turn or several: tool turns of 1–3 calls, replies, user turns. */
const run = fc.array(
  fc.oneof(
    { arbitrary: fc.array(fc.integer({ min: 0, max: 12_000 }), { minLength: 1, maxLength: 3 }).map((sizes) => ({ type: 'tools' as const, sizes })), weight: 6 },
    { arbitrary: fc.integer({ min: 1, max: 3000 }).map((size) => ({ type: 'user' as const, size })), weight: 1 },
    { arbitrary: fc.integer({ min: 1, max: 3000 }).map((size) => ({ type: 'reply' as const, size })), weight: 1 },
  ),
  { maxLength: 80 },
);

describe('compaction over random runs', () => {
  it('never makes a request larger: tokens after compaction < tokens before, whatever the summary (1,000 runs)', () => {
    fc.assert(
      fc.property(run, fc.integer({ min: 2_000, max: 64_000 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 8000 }), (turns, window, keepRecent, summaryChars) => {
        const messages: Message[] = [{ role: 'user', content: 'The task' }];
        let id = 0;
        for (const turn of turns) {
          if (turn.type === 'user') messages.push({ role: 'user', content: 'u '.repeat(turn.size) });
          else if (turn.type === 'reply') messages.push({ role: 'assistant', content: [{ type: 'text', text: 'r'.repeat(turn.size) }] });
          else {
            const ids = turn.sizes.map(() => `tc_${++id}`);
            messages.push({ role: 'assistant', content: ids.map((callId) => ({ type: 'tool-call', id: callId, name: 'search', arguments: {} })) });
            messages.push({ role: 'tool', content: ids.map((callId, index) => ({ type: 'tool-result', toolCallId: callId, toolName: 'search', output: 'o'.repeat(turn.sizes[index] ?? 0), isError: false })) });
          }
        }
        const plan = planCompaction(FRAME, messages, NO_COMPACTION, { window, compactAt: 0.8, target: 0.32, keepRecent });
        if (!plan) return;
        let compaction = plan.compaction;
        if (plan.summarize) compaction = withSummary(FRAME, messages, compaction, 's'.repeat(summaryChars), plan.summarize.through) ?? compaction;
        const view = compactedView(messages, compaction);
        if (plan.tiers.length > 0 || compaction.summary) expect(estimateRequestTokens(FRAME, view)).toBeLessThan(plan.tokensBefore);
        expect(toolPairingProblems(view)).toEqual([]);
        expect(view[0]).toEqual(messages[0]);
      }),
      { numRuns: 1000 },
    );
  });
});
