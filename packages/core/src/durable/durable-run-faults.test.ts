import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, DurableRunError, type JournalEntry, memoryRunStore, type RunStore, tool } from '../index';
import { releaseSuspension } from '../run/state/resumed-suspensions';
import { recorder } from '../testing/event-recorder';
import { asSuspended, type ScriptedReply, scriptedModel } from '../testing/index';

const KEY = 'k'.repeat(32);

/** A durable agent whose `refund` tool needs approval, the refunds it made, and its `run.end` events. */
function refunds(store: RunStore, script: Parameters<typeof scriptedModel>[0]) {
  const made: string[] = [];
  const refund = tool({ name: 'refund', description: 'Refunds an order', input: Type.Object({ orderId: Type.String() }), needsApproval: true, execute: ({ orderId }) => void made.push(orderId) });
  const events = recorder('run.end', 'run.suspended');
  const agent = events.attach(Agent.create({ provider: scriptedModel(script), model: 'm', id: 'refunds', stateKey: KEY }).tool(refund).durable(store)).build();
  return { agent, made, events };
}

/** A store whose first append that leaves the run `status` fails, as a store that is briefly down. */
function failingOnce(base: RunStore, status: 'suspended' | 'complete'): RunStore {
  let failures = 1;
  return { ...base, append: (lease, append) => (append.status === status && failures-- > 0 ? Promise.reject(new Error('store unavailable')) : base.append(lease, append)) };
}

/** A store that takes `writesLeft()` more appends, then dies: that append and every later one are refused (until it is given more). */
function dyingAfter(base: RunStore, writesLeft: () => number, spend: () => void): RunStore {
  return { ...base, append: (lease, append) => (writesLeft() > 0 ? (spend(), base.append(lease, append)) : Promise.reject(new Error('the process died'))) };
}

/** The run's journal as the store holds it. */
const journalOf = async (store: RunStore, runId: string) => ((await store.load(runId))?.entries ?? []) as JournalEntry[];

const SUSPENDING: readonly ScriptedReply[] = [{ toolCalls: [{ id: 'c1', name: 'refund', arguments: { orderId: 'A-1' } }] }, 'Refunded.'];

/** The model of {@link SUSPENDING}, answering by what it is sent: a call asked again after a crash gets the same answer. */
const REFUNDING = (request: { readonly messages: readonly { readonly role: string }[] }): ScriptedReply =>
  request.messages.some((message) => message.role === 'tool') ? 'Refunded.' : { toolCalls: [{ id: 'c1', name: 'refund', arguments: { orderId: 'A-1' } }] };

describe('durable runs: reused ids and a failing store', () => {
  it('two runs started with one id at once: one runs, the other is refused as `exists` before it asks the model', async () => {
    const store = memoryRunStore();
    const first = refunds(store, ['first']);
    const second = refunds(store, ['second']);
    const [a, b] = await Promise.allSettled([first.agent.run('one', { runId: 'same' }), second.agent.run('two', { runId: 'same' })]);
    expect(a).toMatchObject({ status: 'fulfilled', value: { text: 'first' } });
    expect(b.status).toBe('rejected');
    const error = (b as PromiseRejectedResult).reason as unknown;
    expect(DurableRunError.isInstance(error) && error.problem).toBe('exists');
    // The refused run never started: no run.end of it, and the store holds the first run's journal alone.
    expect(second.events.of('run.end')).toEqual([]);
    expect(await store.load('same')).toMatchObject({ status: 'complete' });
    const journal = await journalOf(store, 'same');
    expect(journal.map((entry) => entry.type)).toEqual(['input', 'answer', 'end']);
    expect(journal[0]?.messages).toEqual([{ role: 'user', content: 'one' }]);
    expect(journal.at(-1)).toMatchObject({ end: { text: 'first' } });
    expect(JSON.stringify(journal)).not.toContain('second');
  });

  it('a run that the store kept nothing of gives its id back: the same id starts again at once', async () => {
    const base = memoryRunStore();
    // The first append (the input) fails; the store is up again at once, but the run's failure is not appended after it.
    let failures = 1;
    const tried: string[][] = [];
    const store: RunStore = { ...base, append: (lease, append) => (tried.push((append.entries as JournalEntry[]).map((entry) => entry.type)), failures-- > 0 ? Promise.reject(new Error('store unavailable')) : base.append(lease, append)) };
    const { agent } = refunds(store, ['Nothing to refund.']);
    await expect(agent.run('refund A-1', { runId: 'r' })).rejects.toThrow('store unavailable');
    // No journal that begins with a failure: the store holds nothing of the run.
    expect(tried).toEqual([['input']]);
    expect(await base.load('r')).toBeUndefined();
    expect(await agent.run('refund A-1', { runId: 'r' })).toMatchObject({ status: 'complete', text: 'Nothing to refund.' });
  });

  it('a store that fails once writing the suspended result loses no approval: recover gives the state, it resumes, the call runs once', async () => {
    const { agent, made } = refunds(failingOnce(memoryRunStore(), 'suspended'), SUSPENDING);
    // The run did suspend, but its caller never got the state.
    await expect(agent.run('refund A-1', { runId: 'r' })).rejects.toThrow('store unavailable');
    const recovered = asSuspended(await agent.recover('r'));
    const approve = recovered.pendingApprovals.map((call) => call.toolCallId);
    expect(approve).toHaveLength(1);
    const resumed = await agent.resume(recovered.state, { approve });
    expect(resumed.text).toBe('Refunded.');
    expect(made).toEqual(['A-1']);
    await expect(agent.resume(recovered.state, { approve })).rejects.toMatchObject({ problem: 'already-resumed' });
    expect(made).toEqual(['A-1']);
  });

  it('a run whose result the store failed to write throws the store error, and reports run.end once, as it ended', async () => {
    const { agent, events } = refunds(failingOnce(memoryRunStore(), 'complete'), ['Nothing to refund.']);
    await expect(agent.run('refund A-1', { runId: 'r' })).rejects.toThrow('store unavailable');
    // A metrics listener counts one run: the one that ended ok, never a second end as an error.
    expect(events.of('run.end').map((event) => event.status)).toEqual(['complete']);
    expect(await agent.recover('r')).toMatchObject({ status: 'complete', text: 'Nothing to refund.' });
  });
});

describe('durable recoveries: a failing store', () => {
  it('a recover whose first append the store failed to write leaves the journal as it read it: recovering again goes on, the call runs once', async () => {
    const base = memoryRunStore();
    let failing = false;
    const store: RunStore = { ...base, append: (lease, append) => (failing ? ((failing = false), Promise.reject(new Error('store unavailable'))) : base.append(lease, append)) };
    // A run killed as its model turn was written: it was about to ask for the refund's approval.
    let dead = false;
    const dying: RunStore = { ...base, append: (lease, append) => (dead || (append.entries as JournalEntry[]).some((entry) => entry.type === 'suspension-due') ? ((dead = true), Promise.reject(new Error('the process died'))) : base.append(lease, append)) };
    await expect(refunds(dying, SUSPENDING).agent.run('refund A-1', { runId: 'r' })).rejects.toThrow('the process died');
    const killed = await base.load('r');
    const { agent, made } = refunds(store, SUSPENDING.slice(1));
    failing = true;
    await expect(agent.recover('r')).rejects.toThrow('store unavailable');
    // Its `recovery` never landed, nor a failure after it: the journal is as the recover read it.
    expect(await base.load('r')).toEqual(killed);
    const suspended = asSuspended(await agent.recover('r'));
    expect(await agent.resume(suspended.state, { approve: suspended.pendingApprovals.map((call) => call.toolCallId) })).toMatchObject({ status: 'complete', text: 'Refunded.' });
    expect(made).toEqual(['A-1']);
  });
});

describe('durable resumes: a failing store and a killed process', () => {
  it('a resume whose first append the store failed to write gives the state back: it resumes again, the call runs once', async () => {
    const base = memoryRunStore();
    let failing = false;
    const store: RunStore = { ...base, append: (lease, append) => (failing ? ((failing = false), Promise.reject(new Error('store unavailable'))) : base.append(lease, append)) };
    const { agent, made } = refunds(store, SUSPENDING);
    const { state, pendingApprovals } = asSuspended(await agent.run('refund A-1', { runId: 'r' }));
    const approve = pendingApprovals.map((call) => call.toolCallId);
    const suspendedJournal = await base.load('r');
    expect(suspendedJournal?.entries.at(-1)).toMatchObject({ type: 'suspension' });
    failing = true;
    await expect(agent.resume(state, { approve })).rejects.toThrow('store unavailable');
    expect(made).toEqual([]);
    // Nothing ran: the run is suspended on the state again, its journal as it was (no failure after the suspension).
    expect(await base.load('r')).toEqual(suspendedJournal);
    expect(await agent.resume(state, { approve })).toMatchObject({ status: 'complete', text: 'Refunded.' });
    expect(made).toEqual(['A-1']);
  });

  it('a resume killed after its first append: resuming the state again is refused naming recover(), which runs the call once', async () => {
    const base = memoryRunStore();
    // Once armed, the process dies at the append after the resume's first one: nothing of the call ran.
    let writesLeft = Number.POSITIVE_INFINITY;
    const store = dyingAfter(base, () => writesLeft, () => void (writesLeft -= 1));
    const { agent, made } = refunds(store, SUSPENDING);
    const { state, pendingApprovals } = asSuspended(await agent.run('refund A-1', { runId: 'r' }));
    const approve = pendingApprovals.map((call) => call.toolCallId);
    writesLeft = 1;
    await expect(agent.resume(state, { approve })).rejects.toThrow('the process died');
    expect(made).toEqual([]);
    // The resume's first entry landed, and nothing after it: the call's intent never did.
    expect((await journalOf(base, 'r')).slice(-2).map((entry) => entry.type)).toEqual(['suspension', 'resume']);
    // Another process, after the restart: the store is up again, this process's memory of spent states is gone.
    writesLeft = Number.POSITIVE_INFINITY;
    releaseSuspension(state.suspensionId);
    const again = await agent.resume(state, { approve }).catch((error: unknown) => error);
    expect(again).toMatchObject({ problem: 'already-resumed', message: expect.stringContaining('agent.recover("r")') });
    expect(await agent.recover('r')).toMatchObject({ status: 'complete', text: 'Refunded.' });
    expect(made).toEqual(['A-1']);
  });

  it('a resume killed at each of its appends: recovering (and settling what is unknown) ends the run with the approved call run once', async () => {
    const clean = memoryRunStore();
    const resumeAppends: string[][] = [];
    let counting = false;
    const recording: RunStore = { ...clean, append: (lease, append) => (counting && resumeAppends.push((append.entries as JournalEntry[]).map((entry) => entry.type)), clean.append(lease, append)) };
    const reference = refunds(recording, REFUNDING);
    const suspendedRun = asSuspended(await reference.agent.run('refund A-1', { runId: 'r' }));
    counting = true;
    await reference.agent.resume(suspendedRun.state, { approve: suspendedRun.pendingApprovals.map((call) => call.toolCallId) });
    // The resume appends its entry (once its call is about to run), the call's intent and outcome, the turn's results, the answer and the end.
    expect(resumeAppends).toEqual([['resume'], ['tool-intent'], ['tool-outcome'], ['tool-results'], ['answer'], ['end']]);
    for (let killedAt = 0; killedAt < resumeAppends.length; killedAt++) {
      const base = memoryRunStore();
      let writesLeft = Number.POSITIVE_INFINITY;
      const store = dyingAfter(base, () => writesLeft, () => void (writesLeft -= 1));
      const { agent, made } = refunds(store, REFUNDING);
      const { state, pendingApprovals } = asSuspended(await agent.run('refund A-1', { runId: `r-${killedAt}` }));
      const approve = pendingApprovals.map((call) => call.toolCallId);
      const suspended = await journalOf(base, `r-${killedAt}`);
      writesLeft = killedAt;
      await expect(agent.resume(state, { approve })).rejects.toThrow();
      // What landed is the suspended journal and the resume's first `killedAt` appends, unchanged.
      const landed = await journalOf(base, `r-${killedAt}`);
      expect(landed.slice(0, suspended.length)).toEqual(suspended);
      expect(landed.slice(suspended.length).map((entry) => [entry.type])).toEqual(resumeAppends.slice(0, killedAt));
      writesLeft = Number.POSITIVE_INFINITY;
      // Another process: the state is spent; the run goes on from its journal.
      releaseSuspension(state.suspensionId);
      let result = await agent.recover(`r-${killedAt}`);
      // Killed before its first append, the run is still suspended on the state: it resumes again.
      if (result.status === 'suspended' && result.unknownOutcomes.length === 0) result = await agent.resume(result.state, { approve });
      if (result.status === 'suspended') {
        // The refund's outcome is unknown after the crash: settled by what happened.
        expect(result.unknownOutcomes.map((call) => call.toolCallId)).toEqual(approve);
        const [id] = approve as [string];
        result = await agent.resume(result.state, made.length === 1 ? { outcomes: [{ id, result: 'refunded' }] } : { retry: [id] });
      }
      expect({ killedAt, status: result.status, text: result.text, made }).toEqual({ killedAt, status: 'complete', text: 'Refunded.', made: ['A-1'] });
    }
  });
});
