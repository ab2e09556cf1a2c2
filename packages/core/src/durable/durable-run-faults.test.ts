import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, DurableRunError, memoryRunStore, type RunStore, tool } from '../index';
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

/** A store whose first write of a checkpoint with `status` fails, as a store that is briefly down. */
function failingOnce(base: RunStore, status: 'suspended' | 'complete'): RunStore {
  let failures = 1;
  return { ...base, save: (lease, checkpoint) => (checkpoint.status === status && failures-- > 0 ? Promise.reject(new Error('store unavailable')) : base.save(lease, checkpoint)) };
}

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
    // The refused run never started: no run.end of it, and the store holds the first run's result.
    expect(second.events.of('run.end')).toEqual([]);
    expect(await store.load('same')).toMatchObject({ status: 'complete', state: { result: { text: 'first' } } });
  });

  it('a run that the store kept nothing of gives its id back: the same id starts again at once', async () => {
    const base = memoryRunStore();
    // The first checkpoint and the failed mark after it.
    let failures = 2;
    const store: RunStore = { ...base, save: (lease, checkpoint) => (failures-- > 0 ? Promise.reject(new Error('store unavailable')) : base.save(lease, checkpoint)) };
    const { agent } = refunds(store, ['Nothing to refund.']);
    await expect(agent.run('refund A-1', { runId: 'r' })).rejects.toThrow('store unavailable');
    expect(await agent.run('refund A-1', { runId: 'r' })).toMatchObject({ status: 'complete', text: 'Nothing to refund.' });
  });

  it('a store that fails once writing the suspended result loses no approval: recover gives the state, it resumes, the call runs once', async () => {
    const { agent, made } = refunds(failingOnce(memoryRunStore(), 'suspended'), SUSPENDING);
    // The run did suspend, but its caller never got the state.
    await expect(agent.run('refund A-1', { runId: 'r' })).rejects.toThrow('store unavailable');
    const recovered = asSuspended(await agent.recover('r'));
    const resumed = await agent.resume(recovered.state, { approve: ['c1'] });
    expect(resumed.text).toBe('Refunded.');
    expect(made).toEqual(['A-1']);
    await expect(agent.resume(recovered.state, { approve: ['c1'] })).rejects.toMatchObject({ problem: 'already-resumed' });
    expect(made).toEqual(['A-1']);
  });

  it('a run whose result the store failed to write throws the store error, and reports run.end once, as it ended', async () => {
    const { agent, events } = refunds(failingOnce(memoryRunStore(), 'complete'), ['Nothing to refund.']);
    await expect(agent.run('refund A-1', { runId: 'r' })).rejects.toThrow('store unavailable');
    // A metrics listener counts one run: the one that ended ok, never a second end as an error.
    expect(events.of('run.end').map((event) => event.status)).toEqual(['ok']);
    expect(await agent.recover('r')).toMatchObject({ status: 'complete', text: 'Nothing to refund.' });
  });
});

describe('durable resumes: a failing store and a killed process', () => {
  it('a resume whose first checkpoint the store failed to write gives the state back: it resumes again, the call runs once', async () => {
    const base = memoryRunStore();
    let failing = false;
    const store: RunStore = { ...base, save: (lease, checkpoint) => (failing ? ((failing = false), Promise.reject(new Error('store unavailable'))) : base.save(lease, checkpoint)) };
    const { agent, made } = refunds(store, SUSPENDING);
    const { state } = asSuspended(await agent.run('refund A-1', { runId: 'r' }));
    failing = true;
    await expect(agent.resume(state, { approve: ['c1'] })).rejects.toThrow('store unavailable');
    expect(made).toEqual([]);
    // Nothing ran: the run is suspended on the state again, not marked failed on its resumed copy.
    expect(await base.load('r')).toMatchObject({ status: 'suspended' });
    expect(await agent.resume(state, { approve: ['c1'] })).toMatchObject({ status: 'complete', text: 'Refunded.' });
    expect(made).toEqual(['A-1']);
  });

  it('a resume killed after its first checkpoint: resuming the state again is refused naming recover(), which runs the call once', async () => {
    const base = memoryRunStore();
    // Once armed, the process dies at the write after the resume's first checkpoint: nothing of the call ran.
    let writesLeft = Number.POSITIVE_INFINITY;
    const store: RunStore = { ...base, save: (lease, checkpoint) => (writesLeft-- > 0 ? base.save(lease, checkpoint) : Promise.reject(new Error('the process died'))) };
    const { agent, made } = refunds(store, SUSPENDING);
    const { state } = asSuspended(await agent.run('refund A-1', { runId: 'r' }));
    writesLeft = 1;
    await expect(agent.resume(state, { approve: ['c1'] })).rejects.toThrow('the process died');
    expect(made).toEqual([]);
    // Another process, after the restart: the store is up again, this process's memory of spent states is gone.
    writesLeft = Number.POSITIVE_INFINITY;
    releaseSuspension(state.suspensionId);
    const again = await agent.resume(state, { approve: ['c1'] }).catch((error: unknown) => error);
    expect(again).toMatchObject({ problem: 'already-resumed', message: expect.stringContaining('agent.recover("r")') });
    expect(await agent.recover('r')).toMatchObject({ status: 'complete', text: 'Refunded.' });
    expect(made).toEqual(['A-1']);
  });

  it('a resume killed at each of its checkpoints: recovering (and settling what is unknown) ends the run with the approved call run once', async () => {
    const clean = memoryRunStore();
    let writes = 0;
    const counting: RunStore = { ...clean, save: (lease, checkpoint) => ((writes += 1), clean.save(lease, checkpoint)) };
    const reference = refunds(counting, REFUNDING);
    const suspendedRun = asSuspended(await reference.agent.run('refund A-1', { runId: 'r' }));
    const before = writes;
    await reference.agent.resume(suspendedRun.state, { approve: ['c1'] });
    const resumeWrites = writes - before;
    expect(resumeWrites).toBeGreaterThan(3);
    for (let killedAt = 0; killedAt < resumeWrites; killedAt++) {
      const base = memoryRunStore();
      let writesLeft = Number.POSITIVE_INFINITY;
      const store: RunStore = { ...base, save: (lease, checkpoint) => (writesLeft-- > 0 ? base.save(lease, checkpoint) : Promise.reject(new Error('the process died'))) };
      const { agent, made } = refunds(store, REFUNDING);
      const { state } = asSuspended(await agent.run('refund A-1', { runId: `r-${killedAt}` }));
      writesLeft = killedAt;
      await expect(agent.resume(state, { approve: ['c1'] })).rejects.toThrow();
      writesLeft = Number.POSITIVE_INFINITY;
      // Another process: the state is spent; the run goes on from its checkpoint.
      releaseSuspension(state.suspensionId);
      let result = await agent.recover(`r-${killedAt}`);
      // Killed before its first checkpoint, the run is still suspended on the state: it resumes again.
      if (result.status === 'suspended' && result.unknownOutcomes.length === 0) result = await agent.resume(result.state, { approve: ['c1'] });
      if (result.status === 'suspended') {
        // The refund's outcome is unknown after the crash: settled by what happened.
        expect(result.unknownOutcomes.map((call) => call.toolCallId)).toEqual(['c1']);
        result = await agent.resume(result.state, made.length === 1 ? { outcomes: [{ id: 'c1', result: 'refunded' }] } : { retry: ['c1'] });
      }
      expect({ killedAt, status: result.status, text: result.text, made }).toEqual({ killedAt, status: 'complete', text: 'Refunded.', made: ['A-1'] });
    }
  });
});
