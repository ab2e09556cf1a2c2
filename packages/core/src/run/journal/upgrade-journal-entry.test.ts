import { describe, expect, it } from 'vitest';
import { type JournalEntry, memoryRunStore, RunStateError, type RunResult, type RunStore } from '../../index';
import { asSuspended } from '../../testing/index';
import { KEY, Crash, callIdOf, crashing, journalOf, outcomeOf, refunds, world, SCRIPT } from '../../durable/durable-fixture';
import { journalOfFormat1 } from './format-1-fixture';
import { JOURNAL_VERSION } from './journal-entry';
import { upgradeJournalEntry } from './upgrade-journal-entry';

/** A run killed after `credit` and `email` started, before either outcome was written: its journal. */
async function killedRun(): Promise<JournalEntry[]> {
  const store = memoryRunStore();
  const dying = refunds(crashing(store, outcomeOf('credit')), SCRIPT, world());
  await expect(dying.agent.run('refund A-1', { runId: 'r-1' })).rejects.toThrow(Crash);
  return journalOf(store, 'r-1');
}

/** A store holding `entries` as the journal of run `r-1`, as a store of an earlier Keel would hand them back. */
async function storeHolding(entries: readonly JournalEntry[]): Promise<RunStore> {
  const store = memoryRunStore();
  await store.append(await store.acquire('r-1'), { agentId: 'refunds', status: 'running', entries });
  return store;
}

/** Recovers run `r-1` from `store`: the unknown email settled as sent, then the result. */
async function recovered(store: RunStore) {
  const effects = world();
  const recovering = refunds(store, ['Refunded.'], effects);
  const suspended = asSuspended(await recovering.agent.recover('r-1'));
  const emailId = suspended.unknownOutcomes[0]?.toolCallId as string;
  const result = await recovering.agent.resume(suspended.state, { outcomes: [{ id: emailId, result: 'sent' }] });
  return { store, suspended, result, effects, modelCalls: recovering.model.calls };
}

/** What a result says, its timings left out. */
const said = (result: RunResult<unknown>) => ({
  status: result.status,
  text: result.text,
  messages: result.messages,
  toolCalls: result.toolCalls.map(({ durationMs: _durationMs, ...call }) => call),
  usage: result.usage,
  finishReason: result.finishReason,
});

describe('journals of format 1', () => {
  it('upgrades each tool call of an entry: records and intents are named toolCallId / toolName, the input says this format', () => {
    const entry = {
      seq: 0,
      type: 'input',
      start: { version: 1, startedAt: 1 },
      toolCalls: [{ id: 'c1', name: 'lookup', output: 'x', isError: false }],
      intent: { id: 'c2', name: 'credit', arguments: {} },
      outcome: { id: 'c2', name: 'credit', output: 'ok', isError: false },
      next: { type: 'call-tools', turn: { content: [{ type: 'tool-call', id: 'c3', name: 'email', arguments: {} }], resumed: { finished: [{ id: 'c4', name: 'lookup' }] }, journal: { intents: [{ id: 'c5', name: 'email' }], outcomes: [] } } },
      suspension: { turn: { finished: [{ id: 'c6', name: 'lookup' }] }, pending: [{ toolCallId: 'c7', toolName: 'refund' }] },
    };
    expect(upgradeJournalEntry(entry)).toEqual({
      seq: 0,
      type: 'input',
      start: { version: JOURNAL_VERSION, startedAt: 1 },
      toolCalls: [{ toolCallId: 'c1', toolName: 'lookup', output: 'x', isError: false }],
      intent: { toolCallId: 'c2', toolName: 'credit', arguments: {} },
      outcome: { toolCallId: 'c2', toolName: 'credit', output: 'ok', isError: false },
      // The model's turn is the provider's message part: it keeps the wire's id and name.
      next: { type: 'call-tools', turn: { content: [{ type: 'tool-call', id: 'c3', name: 'email', arguments: {} }], resumed: { finished: [{ toolCallId: 'c4', toolName: 'lookup' }] }, journal: { intents: [{ toolCallId: 'c5', toolName: 'email' }], outcomes: [] } } },
      suspension: { turn: { finished: [{ toolCallId: 'c6', toolName: 'lookup' }] }, pending: [{ toolCallId: 'c7', toolName: 'refund' }] },
    });
    // An entry of this format, and what is no entry of a journal, are given back as they are.
    const current = { seq: 1, type: 'tool-outcome', outcome: { toolCallId: 'c2', toolName: 'credit', output: 'ok' } };
    expect(upgradeJournalEntry(current)).toEqual(current);
    expect(upgradeJournalEntry({ toolCalls: 'none', intent: null, next: 7, suspension: { turn: 1 } })).toEqual({ toolCalls: 'none', intent: null, next: 7, suspension: { turn: 1 } });
  });

  it('recovers a run that format 1 journaled as the run this format journaled: the same calls, kept once, and the same result', async () => {
    const journal = await killedRun();
    const now = await recovered(await storeHolding(journal));
    const earlier = await recovered(await storeHolding(await journalOfFormat1(journal, KEY)));
    // The idempotent credit ran again with its key, the email (once) waited: its intent named the tool.
    expect(earlier.effects.credits.size).toBe(1);
    expect(earlier.effects.emails).toEqual([]);
    expect(earlier.suspended.unknownOutcomes).toEqual(now.suspended.unknownOutcomes);
    expect(earlier.suspended.unknownOutcomes.map((call) => call.toolName)).toEqual(['email']);
    expect(earlier.modelCalls).toBe(now.modelCalls);
    expect(said(earlier.result)).toEqual(said(now.result));
    expect(earlier.result.toolCalls.map((call) => [call.toolCallId, call.toolName])).toEqual(['lookup', 'credit', 'email'].map((name) => [callIdOf(journal, name), name]));
    // The journal now holds entries of both formats: read again, it gives the same result, running nothing.
    const again = refunds(earlier.store, [], world());
    expect(said(await again.agent.recover('r-1'))).toEqual(said(earlier.result));
    expect(again.model.calls).toBe(0);
  });

  it('refuses a journal of a format from the future with the error it had, running nothing', async () => {
    const store = await storeHolding(await journalOfFormat1(await killedRun(), KEY, JOURNAL_VERSION + 1));
    const recovering = refunds(store, ['Refunded.'], world());
    const error = await recovering.agent.recover('r-1').catch((thrown: unknown) => thrown);
    expect(RunStateError.isInstance(error) && error.problem).toBe('unsupported-version');
    expect(recovering.model.calls).toBe(0);
  });
});
