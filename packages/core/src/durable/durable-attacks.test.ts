import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type JournalEntry, memoryRunStore, RunStateError, type RunStore, tool } from '../index';
import { asSuspended, scriptedModel } from '../testing/index';
import { Crash, crashing, journalOf, KEY } from './durable-fixture';

/** A durable agent whose `refund` needs approval. */
function approving(store: RunStore, made: string[]) {
  const refund = tool({ name: 'refund', description: 'Refunds', input: Type.Object({ orderId: Type.String() }), needsApproval: true, execute: ({ orderId }) => void made.push(orderId) });
  const model = scriptedModel((request) => (request.messages.some((message) => message.role === 'tool') ? 'Refunded.' : { toolCalls: [{ id: 'c1', name: 'refund', arguments: { orderId: 'A-1' } }] }));
  return Agent.create({ provider: model, model: 'm', id: 'refunds', stateKey: KEY }).tool(refund).durable(store).build();
}

const nonDecreasing = (entries: readonly JournalEntry[]) => entries.every((entry, index) => index === 0 || entry.elapsedMs >= (entries[index - 1] as JournalEntry).elapsedMs);

describe('durable runs, attacked', () => {
  it('recover of a suspended run gives back the very state the run gave (same signature), resumable once; time never goes back', async () => {
    const store = memoryRunStore();
    const made: string[] = [];
    const suspended = asSuspended(await approving(store, made).run('Refund A-1', { runId: 'r-susp' }));
    const again = asSuspended(await approving(store, made).recover('r-susp'));
    const twice = asSuspended(await approving(store, made).recover('r-susp'));
    expect(again.state).toEqual(suspended.state);
    expect(twice.state.signature).toBe(suspended.state.signature);
    const { state: _state, durationMs, ...rest } = suspended;
    const { state: _again, durationMs: againMs, ...recovered } = again;
    expect(recovered).toEqual(rest);
    expect(againMs).toBe(durationMs);
    const done = await approving(store, made).resume(again.state, { approve: ['c1'] });
    expect(done.status).toBe('complete');
    expect(done.durationMs).toBeGreaterThanOrEqual(suspended.durationMs);
    const error = await approving(store, made).resume(suspended.state, { approve: ['c1'] }).catch((thrown: unknown) => thrown);
    expect(RunStateError.isInstance(error) && error.problem).toBe('already-resumed');
    expect(made).toEqual(['A-1']);
    const entries = await journalOf(store, 'r-susp');
    expect(nonDecreasing(entries)).toBe(true);
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index));
  });

  it("a sub-agent's model calls are counted once after the parent is recovered", async () => {
    const run = async (store: RunStore) => {
      const helper = Agent.create({ provider: scriptedModel(['A-1 is paid.']), model: 'm', id: 'helper' }).build();
      const model = scriptedModel((request) => (request.messages.some((message) => message.role === 'tool') ? 'Refunded.' : { toolCalls: [{ id: 'h1', name: 'ask_helper', arguments: { message: 'A-1?' } }] }));
      return Agent.create({ provider: model, model: 'm', id: 'parent', stateKey: KEY }).tool(helper.asTool({ name: 'ask_helper', description: 'Asks the helper' })).durable(store).build().run('Refund A-1', { runId: 'r-sub' });
    };
    const whole = await run(memoryRunStore());
    const store = memoryRunStore();
    // The process dies as the final answer is written: the recovered run asks the model for it again.
    await expect(run(crashing(store, (entry) => entry.type === 'answer'))).rejects.toThrow(Crash);
    const recovered = await (async () => {
      const helper = Agent.create({ provider: scriptedModel([]), model: 'm', id: 'helper' }).build();
      const model = scriptedModel(['Refunded.']);
      return Agent.create({ provider: model, model: 'm', id: 'parent', stateKey: KEY }).tool(helper.asTool({ name: 'ask_helper', description: 'Asks the helper' })).durable(store).build().recover('r-sub');
    })();
    expect(recovered.status).toBe('complete');
    expect(recovered.usage.modelCalls).toBe(whole.usage.modelCalls);
    expect(recovered.attempts.length).toBe(whole.attempts.length);
    expect(recovered.usage.inputTokens).toBe(whole.usage.inputTokens);
  });
});
