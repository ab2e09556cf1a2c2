import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, type JournalEntry, type ModelResponse, type RunResult, tool } from '../../index';
import type { ModelProviderV1 } from '@keel/provider';

/**
 * Stopping a run after any step (through `agent.iter()`), serializing its journal and continuing
 * it on a new agent object ends as the run that never stopped: the same result, each tool call run
 * once, the same usage, the same loop and compaction state.
 */

type Action = 'call' | 'bad' | 'approve' | 'repeat';

const KEY = 'j'.repeat(32);
const usage = { inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 };
const reply = (content: ModelResponse['content'], text = ''): ModelResponse => ({ content, text, finishReason: content.some((part) => part.type === 'tool-call') ? 'tool-calls' : 'stop', usage });

/**
 * A model whose answer is a function of the request alone (so a continued run asks it exactly what
 * is left): the next action after the turns already answered; after ephemeral feedback (a nudge),
 * another call; a re-ask's corrected arguments; the final answer when the actions run out.
 */
function model(actions: readonly Action[], reuseIds: boolean): ModelProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'journal-model',
    capabilities: () => ({ contextWindow: 4_000 }),
    generate: async (request) => {
      const done = request.messages.filter((message) => message.role === 'tool').length;
      const id = (index: number) => (reuseIds ? `call_${index}` : `p${done}_${index}`);
      const call = (name: string, args: unknown, index = 0) => ({ type: 'tool-call' as const, id: id(index), name, arguments: args });
      if (request.toolChoice?.type === 'tool') return reply([call('add', { n: done })]);
      const last = request.messages.at(-1);
      if (last?.role === 'user' && request.messages.length > 1) return reply([call('add', { n: 100 + done })]);
      const action = actions[done];
      if (action === undefined) return reply([{ type: 'text', text: `done after ${done}` }], `done after ${done}`);
      switch (action) {
        case 'call':
          return reply([call('add', { n: done }), call('add', { n: done + 50 }, 1)]);
        case 'bad':
          return reply([call('add', { n: 'many' })]);
        case 'approve':
          return reply([call('refund', { n: done })]);
        case 'repeat':
          return reply([call('look', { q: 'status' })]);
      }
    },
  };
}

/** The tools, writing each execution to `ran`: `add` returns a page (compaction clears old ones), `refund` needs approval. */
function agentOf(actions: readonly Action[], reuseIds: boolean, ran: string[]) {
  const add = tool({ name: 'add', description: 'adds', input: Type.Object({ n: Type.Number() }), effect: 'idempotent', execute: ({ n }, context) => (ran.push(`add ${n} ${context.idempotencyKey}`), `${n} ${'page '.repeat(120)}`) });
  const refund = tool({ name: 'refund', description: 'refunds', input: Type.Object({ n: Type.Number() }), needsApproval: true, execute: ({ n }) => (ran.push(`refund ${n}`), `refunded ${n}`) });
  const look = tool({ name: 'look', description: 'looks', input: Type.Object({ q: Type.String() }), effect: 'none', execute: ({ q }) => (ran.push(`look ${q}`), 'nothing new') });
  return Agent.create({ provider: model(actions, reuseIds), model: 'm', id: 'journal-agent', stateKey: KEY, maxSteps: 20 })
    .tools([add, refund, look])
    .context({ compactAt: 0.5, keepRecent: 1, summarize: false })
    .build();
}

/** What must be the same: how the run ended, its answer, kept messages, tool calls and usage. */
async function outcome(agent: ReturnType<typeof agentOf>, run: Promise<RunResult<string>>): Promise<unknown> {
  let result: RunResult<string>;
  try {
    result = await run;
    // Every approval is given, on the agent that holds the run.
    while (result.status === 'suspended') result = await agent.resume(result.state, { approve: result.pendingApprovals.map((call) => call.toolCallId) });
  } catch (error) {
    return { error: (error as Error).name, kind: (error as { kind?: unknown }).kind, message: (error as Error).message };
  }
  return {
    status: result.status,
    text: result.text,
    messages: result.messages,
    toolCalls: result.toolCalls.map(({ durationMs: _durationMs, ...call }) => call),
    steps: result.steps.map(({ durationMs: _durationMs, ...step }) => step),
    usage: result.usage,
    attempts: result.attempts.length,
  };
}

const scenarios = fc.record({
  actions: fc.array(fc.constantFrom<Action>('call', 'bad', 'approve', 'repeat', 'repeat'), { maxLength: 7 }),
  reuseIds: fc.boolean(),
  stopAfter: fc.integer({ min: 1, max: 12 }),
});

describe('agent.iter(): a journal stopped after any step continues as if it never stopped', () => {
  it('gives the same result, tool executions and usage (300 random runs)', async () => {
    await fc.assert(
      fc.asyncProperty(scenarios, async ({ actions, reuseIds, stopAfter }) => {
        const whole: string[] = [];
        const unstopped = agentOf(actions, reuseIds, whole);
        const expected = await outcome(unstopped, unstopped.run('Go.', { runId: 'run-1' }));

        const ran: string[] = [];
        const first = agentOf(actions, reuseIds, ran);
        const journal: JournalEntry[] = [];
        const iteration = first.iter('Go.', { runId: 'run-1' });
        let steps = 0;
        for await (const step of iteration) {
          journal.push(...step.entries);
          if (++steps >= stopAfter) break;
        }
        await iteration.result.catch(() => undefined);
        // The journal crosses a process boundary as JSON; a new agent object (same id and key) goes on.
        const second = agentOf(actions, reuseIds, ran);
        const continued = await outcome(second, second.iter({ journal: JSON.parse(JSON.stringify(journal)) as unknown[] }).result);
        expect(continued).toEqual(expected);
        expect(ran).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('refuses a journal with one entry changed as tampered, running nothing', async () => {
    const ran: string[] = [];
    const agent = agentOf(['call', 'call'], false, ran);
    const journal: JournalEntry[] = [];
    const iteration = agent.iter('Go.');
    for await (const step of iteration) {
      journal.push(...step.entries);
      if (journal.some((entry) => entry.type === 'tool-results')) break;
    }
    await iteration.result.catch(() => undefined);
    const text = JSON.stringify(journal).replace('"n":0', '"n":7');
    const before = ran.length;
    await expect(agentOf(['call', 'call'], false, ran).iter({ journal: JSON.parse(text) as unknown[] }).result).rejects.toMatchObject({ name: 'RunStateError', problem: 'tampered' });
    const dropped = journal.filter((entry) => entry.seq !== 1);
    await expect(agentOf(['call', 'call'], false, ran).iter({ journal: JSON.parse(JSON.stringify(dropped)) as unknown[] }).result).rejects.toMatchObject({ problem: 'tampered' });
    await expect(Agent.create({ provider: model([], false), model: 'm', id: 'journal-agent', stateKey: 'x'.repeat(32) }).build().iter({ journal }).result).rejects.toMatchObject({ problem: 'tampered' });
    expect(ran.length).toBe(before);
  });
});
