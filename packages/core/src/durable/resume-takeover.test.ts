import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, memoryRunStore, RunStateError, type RunStore, tool } from '../index';
import { asSuspended, scriptedModel } from '../testing/index';
import { releaseSuspension } from '../run/state/resumed-suspensions';

const KEY = 'k'.repeat(32);

/** An agent whose `refund` waits for approval, durable on `store`; `refunds` counts what ran. */
function refunds(store: RunStore, paid: string[]) {
  const refund = tool({ name: 'refund', description: 'Refunds an order', input: Type.Object({ order: Type.String() }), needsApproval: true, execute: ({ order }) => void paid.push(order) });
  const model = scriptedModel((request) => (request.messages.some((message) => message.role === 'tool') ? 'Refunded.' : { toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 'A-1' } }] }));
  return Agent.create({ provider: model, model: 'm', id: 'refunds', stateKey: KEY }).tool(refund).durable(store).build();
}

/** What another process's resume left in the store when it was killed after its claim, before its first append. */
const claimedByDeadProcess = (store: RunStore, suspensionId: string) => store.claim(`suspension:${suspensionId}`, 60_000);

const problemOf = (error: unknown) => (RunStateError.isInstance(error) ? error.problem : error);

/** A run of `refunds` suspended on its approval, under `runId`: the agent, its store, what it paid and the state. */
async function suspendedRefund(runId: string, store: RunStore = memoryRunStore()) {
  const paid: string[] = [];
  const agent = refunds(store, paid);
  const { state, pendingApprovals } = asSuspended(await agent.run('Refund A-1', { runId }));
  // The refund's approval: the call's id as the run gave it.
  const approve = { approve: pendingApprovals.map((call) => call.toolCallId) };
  return { agent, store, paid, state, approve };
}

/** `store`, except that the next `acquire` or `acquireAt` waits until `wake()`: a process paused (a long GC, a slow network) between its claim and its lease. */
function pausingAcquire(store: RunStore) {
  let next: Promise<void> | undefined;
  let wake = (): void => undefined;
  const paused = async () => {
    const pause = next;
    next = undefined;
    if (pause) await pause;
  };
  const acquire = async (runId: string) => (await paused(), store.acquire(runId));
  const acquireAt = async (runId: string, version: number) => (await paused(), store.acquireAt(runId, version));
  return {
    store: { ...store, acquire, acquireAt } satisfies RunStore,
    pauseNext: () => void (next = new Promise<void>((resolve) => (wake = resolve))),
    wake: () => wake(),
  };
}

describe('a resume taken over from a process killed before its first append', () => {
  it('goes on: the run is still suspended on this state, nothing of the dead resume ran', async () => {
    const { agent, store, paid, state, approve } = await suspendedRefund('run-1');
    await claimedByDeadProcess(store, state.suspensionId);

    const result = await agent.resume(state, approve);

    expect(result.text).toBe('Refunded.');
    expect(paid).toEqual(['A-1']);
  });

  it('is refused once a resume ran on from the state, even when the store gave its claim back', async () => {
    const { agent, store, paid, state, approve } = await suspendedRefund('run-2');
    await agent.resume(state, approve);
    // Another process, whose store claim was given back (a fenced resume gives its claim back).
    releaseSuspension(state.suspensionId);
    await store.release(`suspension:${state.suspensionId}`);

    expect(await agent.resume(state, approve).catch(problemOf)).toBe('already-resumed');
    expect(paid).toEqual(['A-1']);
  });

  it('is refused while the claim is held and a resume has appended to the journal', async () => {
    const { agent, paid, state, approve } = await suspendedRefund('run-3');
    await agent.resume(state, approve);
    releaseSuspension(state.suspensionId);

    expect(await agent.resume(state, approve).catch(problemOf)).toBe('already-resumed');
    expect(paid).toEqual(['A-1']);
  });

  it('a resume paused between its claim and its lease, taken over meanwhile, is refused when it wakes: the call runs once', async () => {
    const pausing = pausingAcquire(memoryRunStore());
    const { agent, paid, state, approve } = await suspendedRefund('run-4', pausing.store);
    pausing.pauseNext();
    const paused = agent.resume(state, approve).catch(problemOf);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Another process takes the resume over while the first sleeps, and finishes the run.
    releaseSuspension(state.suspensionId);
    const takeover = await agent.resume(state, approve);
    pausing.wake();

    expect(takeover.text).toBe('Refunded.');
    expect(await paused).toBe('already-resumed');
    expect(paid).toEqual(['A-1']);
  });
});

describe('a resume paused between its claim and its lease, waking while the resume that took over is still running', () => {
  it('is refused without taking the run from it: the resume that took over ends complete, the call runs once', async () => {
    const pausing = pausingAcquire(memoryRunStore());
    const paid: string[] = [];
    let refunding = (): void => undefined;
    const refundStarted = new Promise<void>((resolve) => (refunding = resolve));
    let finishRefund = (): void => undefined;
    const refundMayEnd = new Promise<void>((resolve) => (finishRefund = resolve));
    const refund = tool({
      name: 'refund',
      description: 'Refunds an order',
      input: Type.Object({ order: Type.String() }),
      needsApproval: true,
      execute: async ({ order }) => {
        refunding();
        await refundMayEnd;
        paid.push(order);
      },
    });
    const model = scriptedModel((request) => (request.messages.some((message) => message.role === 'tool') ? 'Refunded.' : { toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 'A-1' } }] }));
    const agent = Agent.create({ provider: model, model: 'm', id: 'refunds', stateKey: KEY }).tool(refund).durable(pausing.store).build();
    const { state, pendingApprovals } = asSuspended(await agent.run('Refund A-1', { runId: 'run-5' }));
    const approve = { approve: pendingApprovals.map((call) => call.toolCallId) };
    pausing.pauseNext();
    const paused = agent.resume(state, approve).catch(problemOf);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Another process takes the resume over (after resumeTakeoverMs) and starts the refund.
    releaseSuspension(state.suspensionId);
    const takeover = agent.resume(state, approve);
    await refundStarted;
    // The paused resume wakes while that refund is under way: it takes no lease, so the run is not fenced.
    pausing.wake();
    expect(await paused).toBe('already-resumed');
    finishRefund();

    expect((await takeover).text).toBe('Refunded.');
    expect(paid).toEqual(['A-1']);
  });
});

describe('a replay in another process on a store whose reads are stale', () => {
  it('is refused at the lease: the run store still shows the suspension, but its journal has moved on; the call runs once', async () => {
    const base = memoryRunStore();
    // Reads of the run come from a cache that kept the suspended journal (a lagging replica).
    const cached = new Map<string, Awaited<ReturnType<RunStore['load']>>>();
    const store: RunStore = { ...base, load: async (runId) => (cached.has(runId) ? cached.get(runId) : base.load(runId)) };
    const { agent, paid, state, approve } = await suspendedRefund('run-6', store);
    cached.set('run-6', await base.load('run-6'));
    expect((await agent.resume(state, approve)).text).toBe('Refunded.');
    releaseSuspension(state.suspensionId);

    expect(await agent.resume(state, approve).catch(problemOf)).toBe('already-resumed');
    expect(paid).toEqual(['A-1']);
  });
});
