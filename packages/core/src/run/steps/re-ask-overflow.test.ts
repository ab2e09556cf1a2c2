import { Type } from '@sinclair/typebox';
import { describe, expect, it, vi } from 'vitest';
import { Agent, ContextOverflowError, type JournalEntry, memoryRunStore, type RunStore, tool } from '../../index';
import type { ModelRequest } from '../../index';
import { toolPairingProblems } from '../../context/tool-pairing';
import { type ScriptedReply, scriptedModel } from '../../testing/index';
import { recorder } from '../../testing/event-recorder';

/** A page of 30,000 characters: what makes the history long. */
const PAGE = 'page 1: '.padEnd(30_000, 'lorem ipsum ');

/** A vendor's refusal of a request that does not fit, as the adapters classify it. */
const refusal = () => Object.assign(new Error('prompt is too long'), { errorKind: 'context-overflow', status: 400, retryable: false });

/** Whether a request is a tool-argument re-ask: the tool is forced. */
const isReAsk = (request: ModelRequest) => request.toolChoice?.type === 'tool';

/** Whether a request still sends the page whole (no compaction cleared it). */
const sendsPage = (request: ModelRequest) => JSON.stringify(request.messages).includes(PAGE);

/** The second turn's calls: by default one, `fetch` with an invalid step (a string). */
type Calls = NonNullable<Exclude<ScriptedReply, string | Error>['toolCalls']>;
const INVALID_FETCH: Calls = [{ id: 'c2', name: 'fetch', arguments: { step: 'two' } }];

/**
 * A model that fetches the page (call `c1`), then makes `second` (an invalid `fetch` among them),
 * and answers once it has both turns' results. A re-ask is answered with valid arguments;
 * `refuses(request)` says which re-asks the vendor refuses as too long.
 */
function researcher(refuses: (request: ModelRequest) => boolean, second: Calls = INVALID_FETCH) {
  return scriptedModel((request): ScriptedReply => {
    if (isReAsk(request)) return refuses(request) ? refusal() : { toolCalls: [{ id: 'fixed', name: 'fetch', arguments: { step: 2 } }] };
    const turns = request.messages.filter((message) => message.role === 'tool').length;
    if (turns === 0) return { toolCalls: [{ id: 'c1', name: 'fetch', arguments: { step: 1 } }] };
    if (turns === 1) return { toolCalls: second };
    return 'Done: the answer.';
  });
}

function fetchTool() {
  const execute = vi.fn(async ({ step }: { step: number }) => (step === 1 ? PAGE : `page ${step}`));
  return { execute, fetch: tool({ name: 'fetch', description: 'Fetch a page', input: Type.Object({ step: Type.Number() }), execute }) };
}

/** A tool with an effect (`once`): each note it takes is recorded. */
function noteTool() {
  const notes: string[] = [];
  return { notes, note: tool({ name: 'note', description: 'Take a note', input: Type.Object({ text: Type.String() }), execute: ({ text }) => void notes.push(text) }) };
}

/** The second turn: a note (valid, it runs at once) beside the invalid fetch. */
const NOTE_AND_INVALID_FETCH: Calls = [{ id: 'n1', name: 'note', arguments: { text: 'fetching page 2' } }, ...INVALID_FETCH];

/** The compaction that made room for a refused re-ask: the turn goes on after it, with the calls that finished before the refusal. */
const compactionForTheTurn = (entry: JournalEntry) => entry.type === 'compaction' && entry.next?.type === 'call-tools' && entry.next.turn.overflowed !== undefined;

/** A store whose process dies at the append of the compaction (the turn about to go on): that append and every later one never land. */
function diesAfterCompaction(store: RunStore): RunStore {
  let dead = false;
  return {
    ...store,
    append: (lease, append) => {
      dead ||= (append.entries as readonly JournalEntry[]).some(compactionForTheTurn);
      return dead ? Promise.reject(new Error('the process died')) : store.append(lease, append);
    },
  };
}

describe('a context-length refusal of a tool-argument re-ask', () => {
  it('is recovered by one compaction and one retry of the re-ask: the tool runs once, with the corrected arguments', async () => {
    // The vendor refuses the re-ask while the page is sent whole (the re-ask is the step's request and its feedback).
    const model = researcher(sendsPage);
    const { fetch, execute } = fetchTool();
    const events = recorder('context.compacted', 'model.error', 'tool.re-ask', 'tool.validation', 'step.start');
    const agent = events.attach(Agent.create({ provider: model, model: 'm' }).tool(fetch).context({ keepRecent: 0 })).build();

    const result = await agent.run('Research.');

    expect(result.text).toBe('Done: the answer.');
    expect(events.of('model.error').map((event) => [event.purpose, event.errorKind])).toEqual([['tool-re-ask', 'context-overflow']]);
    expect(events.of('context.compacted')).toMatchObject([{ reason: 'overflow', tier: 'clear-results', step: 2, clearedResults: 1, compactions: 1 }]);
    // The tool ran once a call: the page, then the second call only with the corrected arguments.
    expect(execute.mock.calls.map(([input]) => input)).toEqual([{ step: 1 }, { step: 2 }]);
    const [c1, c2] = result.toolCalls.map((call) => call.toolCallId);
    expect(result.toolCalls.map((call) => [call.toolName, call.arguments, call.isError])).toEqual([
      ['fetch', { step: 1 }, false],
      ['fetch', { step: 2 }, false],
    ]);
    expect(c1).not.toBe(c2);
    expect(events.of('tool.validation').map((event) => [event.toolCallId, event.outcome, event.retryCount])).toEqual([
      [c1, 'valid', 0],
      [c2, 'corrected', 1],
    ]);
    // The retried re-ask sends the compacted history, then the same feedback as the refused one.
    const reAsks = model.requests.filter(isReAsk);
    expect(reAsks).toHaveLength(2);
    expect(reAsks[1]?.messages.slice(-2)).toEqual(reAsks[0]?.messages.slice(-2));
    expect(reAsks[1]?.messages.at(-2)).toMatchObject({ role: 'assistant', ephemeral: true });
    expect(toolPairingProblems(reAsks[1]?.messages ?? [])).toEqual([]);
    expect(events.of('tool.re-ask').map((event) => [event.toolCallId, event.reAsk])).toEqual([
      [c2, 1],
      [c2, 1],
    ]);
    // Every call is in the ledger: two steps, the refused re-ask, its retry, the answer.
    expect(result.attempts.map((attempt) => [attempt.purpose, attempt.errorKind])).toEqual([
      ['step', 'ok'],
      ['step', 'ok'],
      ['tool-re-ask', 'context-overflow'],
      ['tool-re-ask', 'ok'],
      ['step', 'ok'],
    ]);
    expect(result.usage.modelCalls).toBe(5);
    expect(model.calls).toBe(5);
    // The re-ask belongs to step 2, which is not begun again: three steps, the second of three model calls.
    expect(events.of('step.start')).toHaveLength(3);
    expect(result.steps.map((step) => step.modelCalls)).toEqual([1, 3, 1]);
    // What is kept is whole: the page, and the turn with the arguments that ran.
    expect(result.messages[2]).toMatchObject({ role: 'tool', content: [{ toolCallId: c1, output: PAGE }] });
    expect(result.messages[3]).toMatchObject({ role: 'assistant', content: [{ type: 'tool-call', id: c2, arguments: { step: 2 } }] });
  });

  it('keeps the calls of the turn that ran beside the refused re-ask: after the compaction only the re-asked call goes on', async () => {
    const model = researcher(sendsPage, NOTE_AND_INVALID_FETCH);
    const { fetch, execute } = fetchTool();
    const { note, notes } = noteTool();
    const events = recorder('context.compacted', 'tool.end');
    const agent = events.attach(Agent.create({ provider: model, model: 'm' }).tool(fetch).tool(note).context({ keepRecent: 0 })).build();

    const result = await agent.run('Research.');

    expect(result.text).toBe('Done: the answer.');
    expect(events.of('context.compacted')).toMatchObject([{ reason: 'overflow' }]);
    expect(notes).toEqual(['fetching page 2']);
    expect(execute.mock.calls.map(([input]) => input)).toEqual([{ step: 1 }, { step: 2 }]);
    const [c1, n1, c2] = result.toolCalls.map((call) => call.toolCallId);
    expect(events.of('tool.end').map((event) => event.toolCallId)).toEqual([c1, n1, c2]);
    expect(result.toolCalls.map((call) => [call.toolName, call.arguments])).toEqual([
      ['fetch', { step: 1 }],
      ['note', { text: 'fetching page 2' }],
      ['fetch', { step: 2 }],
    ]);
    expect(result.messages[4]).toMatchObject({ role: 'tool', content: [{ toolCallId: n1 }, { toolCallId: c2, output: 'page 2' }] });
  });
});

describe('a tool-argument re-ask refused again', () => {
  it('after the compaction, fails with ContextOverflowError and its counts; no tool runs with the invalid arguments', async () => {
    const model = researcher(() => true);
    const { fetch, execute } = fetchTool();
    const events = recorder('context.compacted');
    const agent = events.attach(Agent.create({ provider: model, model: 'm' }).tool(fetch).context({ keepRecent: 0 })).build();

    const error = await agent.run('Research.').catch((thrown: unknown) => thrown);

    expect(ContextOverflowError.isInstance(error)).toBe(true);
    const overflow = error as ContextOverflowError;
    expect(overflow).toMatchObject({ errorKind: 'context-overflow', compactions: 1, retryable: false });
    expect(overflow.estimatedTokens).toBeGreaterThan(0);
    // The refusal showed the window: no larger than the refused request's estimate.
    expect(overflow.contextWindow).toBe(events.of('context.compacted')[0]?.contextWindow);
    expect(overflow.contextWindow).toBeGreaterThan(overflow.estimatedTokens);
    expect(overflow.attempts.map((attempt) => [attempt.purpose, attempt.errorKind])).toEqual([
      ['step', 'ok'],
      ['step', 'ok'],
      ['tool-re-ask', 'context-overflow'],
      ['tool-re-ask', 'context-overflow'],
    ]);
    expect(events.of('context.compacted')).toMatchObject([{ reason: 'overflow' }]);
    expect(execute.mock.calls.map(([input]) => input)).toEqual([{ step: 1 }]);
    expect(model.calls).toBe(4);
  });

  it('with nothing left to compact, fails at once rather than send the same re-ask again', async () => {
    const model = researcher(() => true);
    const { fetch, execute } = fetchTool();
    // The page is among the latest `keepRecent` results: nothing may be cleared.
    const error = await Agent.create({ provider: model, model: 'm' }).tool(fetch).context({ summarize: false }).build().run('Research.').catch((thrown: unknown) => thrown);

    expect(ContextOverflowError.isInstance(error) && [error.compactions, error.attempts.length]).toEqual([0, 3]);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(model.calls).toBe(3);
  });
});

describe('a tool-argument re-ask refused in a durable run', () => {
  it('a durable run killed after the compaction recovers from its journal: the call that ran is not run again, and the re-ask goes on', async () => {
    const store = memoryRunStore();
    const dying = diesAfterCompaction(store);
    const build = (runs: RunStore, refuses: (request: ModelRequest) => boolean) => {
      const model = researcher(refuses, NOTE_AND_INVALID_FETCH);
      const { fetch, execute } = fetchTool();
      const { note, notes } = noteTool();
      const agent = Agent.create({ provider: model, model: 'm', id: 'researcher', stateKey: 'k'.repeat(32) }).tool(fetch).tool(note).context({ keepRecent: 0 }).durable(runs).build();
      return { agent, model, execute, notes };
    };
    const first = build(dying, sendsPage);
    await expect(first.agent.run('Research.', { runId: 'r-1' })).rejects.toThrow('the process died');
    expect(first.notes).toEqual(['fetching page 2']);
    expect(first.model.calls).toBe(3);
    // The journal holds the note's intent and outcome and that a compaction was due; the compaction never landed.
    const killed = (await store.load('r-1'))?.entries as JournalEntry[];
    expect(killed.slice(-3).map((entry) => [entry.type, entry.intent?.toolName ?? entry.outcome?.toolName])).toEqual([
      ['tool-intent', 'note'],
      ['tool-outcome', 'note'],
      ['compaction-due', undefined],
    ]);
    expect(killed.some(compactionForTheTurn)).toBe(false);

    // Another process goes on from the journal: the compaction due, the note's outcome kept.
    const second = build(store, sendsPage);
    const result = await second.agent.recover('r-1');

    expect(result.text).toBe('Done: the answer.');
    expect(second.notes).toEqual([]);
    expect(second.execute.mock.calls.map(([input]) => input)).toEqual([{ step: 2 }]);
    // The re-ask, then the answer: each sent compacted (the page cleared).
    expect(second.model.requests.map((request) => [isReAsk(request), sendsPage(request)])).toEqual([
      [true, false],
      [false, false],
    ]);
    expect(result.toolCalls.map((call) => [call.toolName, call.arguments])).toEqual([
      ['fetch', { step: 1 }],
      ['note', { text: 'fetching page 2' }],
      ['fetch', { step: 2 }],
    ]);
    // Every model call is the run's, the refused re-ask of the killed process included.
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['ok', 'ok', 'context-overflow', 'ok', 'ok']);
    // The recovery appended the compaction again, then went on: one outcome of the note in the whole journal.
    const journal = (await store.load('r-1'))?.entries as JournalEntry[];
    expect(journal.filter((entry) => entry.type === 'tool-outcome' && entry.outcome?.toolName === 'note')).toHaveLength(1);
    expect(journal.filter(compactionForTheTurn)).toHaveLength(1);
  });

  it('a durable run recovered after the compaction still fails on a second refusal of the re-ask', async () => {
    const store = memoryRunStore();
    const dying = diesAfterCompaction(store);
    const agentOver = (runs: RunStore) => Agent.create({ provider: researcher(() => true), model: 'm', id: 'researcher', stateKey: 'k'.repeat(32) }).tool(fetchTool().fetch).context({ keepRecent: 0 }).durable(runs).build();
    await expect(agentOver(dying).run('Research.', { runId: 'r-2' })).rejects.toThrow('the process died');

    const error = await agentOver(store).recover('r-2').catch((thrown: unknown) => thrown);

    expect(ContextOverflowError.isInstance(error) && [error.compactions, error.attempts.map((attempt) => attempt.errorKind)]).toEqual([1, ['ok', 'ok', 'context-overflow', 'context-overflow']]);
  });
});
