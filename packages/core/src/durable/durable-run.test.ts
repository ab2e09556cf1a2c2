import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, DurableRunError, InMemoryStore, type MemoryStore, memoryRunStore, RunStateError, type RunStore, StaleRunOwnerError, tool } from '../index';
import { asSuspended, type ScriptedReply, scriptedModel } from '../testing/index';
import type { DurableState } from './durable-run';
import type { RunCheckpoint } from './run-store';

const KEY = 'k'.repeat(32);

/** What a process's death looks like to the run: the write it was making never lands, nor any after it. */
class Crash extends Error {}

/** A store that dies (refuses this and every later write) at the first checkpoint `at` picks. */
function crashing(store: RunStore, at: (state: DurableState, status: RunCheckpoint['status']) => boolean): RunStore {
  let dead = false;
  return {
    ...store,
    save: (lease, checkpoint) => {
      if (dead || at(checkpoint.state as DurableState, checkpoint.status)) {
        dead = true;
        return Promise.reject(new Crash('the process died'));
      }
      return store.save(lease, checkpoint);
    },
  };
}

/** The turn a checkpoint holds mid-way, with its record of calls. */
const journalOf = (state: DurableState) => ('run' in state && state.run.next.type === 'call-tools' ? state.run.next.turn.journal : undefined);
const outcomeWritten = (id: string) => (state: DurableState) => journalOf(state)?.outcomes.some((record) => record.id === id) === true;
const intentWritten = (id: string) => (state: DurableState) => journalOf(state)?.intents.some((intent) => intent.id === id) === true;

/** A refunds agent: `lookup` reads (none), `credit` writes by key (idempotent), `email` sends (once). */
function refunds(store: RunStore, script: readonly ScriptedReply[], world: { credits: Map<string, number>; emails: string[]; lookups: number }, memory?: MemoryStore) {
  const lookup = tool({ name: 'lookup', description: 'Looks an order up', input: Type.Object({ order: Type.String() }), effect: 'none', execute: ({ order }) => ((world.lookups += 1), { order, amount: 40 }) });
  const credit = tool({
    name: 'credit',
    description: 'Credits the customer',
    input: Type.Object({ amount: Type.Number() }),
    effect: 'idempotent',
    execute: ({ amount }, context) => void world.credits.set(context.idempotencyKey, amount),
  });
  const email = tool({ name: 'email', description: 'Emails the customer', input: Type.Object({ text: Type.String() }), execute: ({ text }) => void world.emails.push(text) });
  const model = scriptedModel(script);
  let builder = Agent.create({ provider: model, model: 'm', id: 'refunds', stateKey: KEY }).tool(lookup).tool(credit).tool(email).durable(store);
  if (memory) builder = builder.memory(memory);
  return { agent: builder.build(), model };
}

const world = () => ({ credits: new Map<string, number>(), emails: [] as string[], lookups: 0 });

const SCRIPT: readonly ScriptedReply[] = [
  { toolCalls: [{ id: 'l1', name: 'lookup', arguments: { order: 'A-1' } }] },
  {
    toolCalls: [
      { id: 'c1', name: 'credit', arguments: { amount: 40 } },
      { id: 'e1', name: 'email', arguments: { text: 'refunded 40' } },
    ],
  },
  'Refunded.',
];

describe('durable runs: checkpoints and recovery', () => {
  it('checkpoints every step and every tool call (intent before, outcome after), and ends with the result', async () => {
    const base = memoryRunStore();
    const written: { status: string; state: DurableState }[] = [];
    const store: RunStore = { ...base, save: (lease, checkpoint) => (written.push({ status: checkpoint.status, state: JSON.parse(JSON.stringify(checkpoint.state)) }), base.save(lease, checkpoint)) };
    const effects = world();
    const { agent } = refunds(store, SCRIPT, effects);
    const result = await agent.run('refund A-1', { runId: 'r-1' });
    expect(result.text).toBe('Refunded.');
    const steps = written.map(({ status, state }) => ('result' in state ? `${status}` : `${state.run.next.type}${journalOf(state) ? ` ${journalOf(state)?.intents.length}/${journalOf(state)?.outcomes.length}` : ''}`));
    // The first state, then each step; a turn's calls: intents (started/finished) as they land.
    expect(steps).toEqual(['ask-model', 'call-tools', 'call-tools 1/0', 'call-tools 1/1', 'ask-model', 'call-tools', 'call-tools 1/0', 'call-tools 2/0', 'call-tools 2/1', 'call-tools 2/2', 'ask-model', 'end', 'complete']);
    const stored = await base.load('r-1');
    expect(stored).toMatchObject({ status: 'complete', agentId: 'refunds', state: { result: { status: 'complete', text: 'Refunded.' } } });
  });

  it('recovers a run killed after a tool ran: finished calls and model calls are not made again, an interrupted idempotent call runs again with its key', async () => {
    const store = memoryRunStore();
    const first = world();
    const credited: string[] = [];
    const dying = refunds(crashing(store, outcomeWritten('c1')), SCRIPT, first);
    await expect(dying.agent.run('refund A-1', { runId: 'r-2' })).rejects.toThrow(Crash);
    credited.push(...first.credits.keys());
    // c1 and e1 ran side by side: both started, neither outcome was written.
    expect(first.emails).toEqual(['refunded 40']);
    // Another process: the same agent over the same store, whose model has only the last answer left.
    const recovering = refunds(store, ['Refunded.'], first);
    first.credits.clear();
    const suspended = asSuspended(await recovering.agent.recover('r-2'));
    expect(recovering.model.calls).toBe(0);
    expect(first.lookups).toBe(1);
    // The idempotent credit ran again with the same key; the email (once) waits for a person.
    expect([...credited, ...first.credits.keys()]).toEqual(['r-2:c1', 'r-2:c1']);
    expect(suspended.status).toBe('suspended');
    expect(suspended.unknownOutcomes.map((call) => call.toolCallId)).toEqual(['e1']);
    const result = await recovering.agent.resume(suspended.state, { outcomes: [{ id: 'e1', result: 'sent' }] });
    expect(result.status).toBe('complete');
    expect(result.text).toBe('Refunded.');
    expect(recovering.model.calls).toBe(1);
    expect(first.emails).toEqual(['refunded 40']);
    expect(result.usage.modelCalls).toBe(3);
    expect(result.toolCalls.map((call) => call.id)).toEqual(['l1', 'c1', 'e1']);
    expect(result.messages.filter((message) => message.role === 'assistant')).toHaveLength(3);
    // Recovering a finished run gives its result back and runs nothing.
    const again = await refunds(store, [], first).agent.recover('r-2');
    expect(again.text).toBe('Refunded.');
  });

  it('a run killed between two steps goes on at the next step, asking the model only what it had not answered', async () => {
    const store = memoryRunStore();
    const effects = world();
    await expect(refunds(crashing(store, outcomeWritten('l1')), SCRIPT, effects).agent.run('refund A-1', { runId: 'r-9' })).rejects.toThrow(Crash);
    expect(effects.lookups).toBe(1);
    const { agent, model } = refunds(store, SCRIPT.slice(1), effects);
    const result = await agent.recover('r-9');
    // The lookup's outcome was never written: it reads only (none), so it ran again.
    expect(effects.lookups).toBe(2);
    expect(result.status).toBe('complete');
    expect(model.calls).toBe(2);
    expect(effects.emails).toEqual(['refunded 40']);
    expect([...effects.credits.keys()]).toEqual(['r-9:c1']);
  });

  it("never runs a 'once' call again blindly: the recovered run suspends with it as an unknown outcome, and resume settles it", async () => {
    const store = memoryRunStore();
    const effects = world();
    const dying = refunds(crashing(store, outcomeWritten('e1')), SCRIPT, effects);
    await expect(dying.agent.run('refund A-1', { runId: 'r-3' })).rejects.toThrow(Crash);
    expect(effects.emails).toEqual(['refunded 40']);
    const { agent, model } = refunds(store, ['Refunded.', 'Refunded again.'], effects);
    const suspended = asSuspended(await agent.recover('r-3'));
    expect(suspended.status).toBe('suspended');
    expect(suspended.pendingApprovals).toEqual([]);
    expect(suspended.unknownOutcomes).toEqual([{ toolCallId: 'e1', toolName: 'email', arguments: { text: 'refunded 40' }, idempotencyKey: 'r-3:e1' }]);
    expect(model.calls).toBe(0);
    expect(effects.emails).toEqual(['refunded 40']);
    // Approval decisions do not settle an unknown outcome, and ids must be the run's.
    const problem = (error: unknown) => (RunStateError.isInstance(error) ? `${error.problem}: ${error.message}` : error);
    expect(await agent.resume(suspended.state, { approve: ['e1'] }).catch(problem)).toMatch(/bad-decisions: .*unknown outcome: settle it with outcomes or retry/);
    expect(await agent.resume(suspended.state, { retry: ['x9'] }).catch(problem)).toMatch(/bad-decisions: .*"x9" is not an unknown outcome/);
    expect(await agent.resume(suspended.state, {}).catch(problem)).toMatch(/undecided: "e1"/);
    const done = await agent.resume(JSON.parse(JSON.stringify(suspended.state)), { outcomes: [{ id: 'e1', result: 'sent' }] });
    expect(done.status).toBe('complete');
    expect(effects.emails).toEqual(['refunded 40']);
    expect(done.toolCalls.find((call) => call.id === 'e1')?.output).toBe('sent');
    expect(model.calls).toBe(1);
  });
});

describe('durable runs: checkpoints and recovery', () => {
  it("retries an unknown 'once' call when told to, with the same idempotency key, once", async () => {
    const store = memoryRunStore();
    const effects = world();
    const dying = refunds(crashing(store, intentWritten('e1')), SCRIPT, effects);
    await expect(dying.agent.run('refund A-1', { runId: 'r-4' })).rejects.toThrow(Crash);
    // The intent never landed: the email did not run, and it is not unknown: it runs on recovery.
    expect(effects.emails).toEqual([]);
    const { agent } = refunds(store, ['Refunded.'], effects);
    const result = await agent.recover('r-4');
    expect(result.status).toBe('complete');
    expect(effects.emails).toEqual(['refunded 40']);

    const killed = world();
    const other = memoryRunStore();
    await expect(refunds(crashing(other, outcomeWritten('e1')), SCRIPT, killed).agent.run('refund', { runId: 'r-5' })).rejects.toThrow(Crash);
    const recovering = refunds(other, ['Refunded.'], killed).agent;
    const suspended = asSuspended(await recovering.recover('r-5'));
    const emails = killed.emails.length;
    const retried = await recovering.resume(suspended.state, { retry: ['e1'] });
    expect(retried.status).toBe('complete');
    expect(killed.emails.length).toBe(emails + 1);
  });

  it('refuses run() with an id the store holds, naming recover; recover refuses what it cannot go on with', async () => {
    const store = memoryRunStore();
    const effects = world();
    await expect(refunds(crashing(store, intentWritten('l1')), SCRIPT, effects).agent.run('refund', { runId: 'r-6', tenant: 'acme' })).rejects.toThrow(Crash);
    const { agent } = refunds(store, SCRIPT, effects);
    const refused = await agent.run('refund again', { runId: 'r-6' }).catch((error: unknown) => error);
    expect(DurableRunError.isInstance(refused) && refused.problem).toBe('exists');
    expect(String((refused as Error).message)).toMatch(/unfinished.*agent\.recover\("r-6"\)/);
    const problemOf = (error: unknown) => (DurableRunError.isInstance(error) ? error.problem : error);
    expect(await agent.recover('nothing').catch(problemOf)).toBe('not-found');
    expect(await agent.recover('r-6').catch(problemOf)).toBe('other-tenant');
    expect(await agent.recover('r-6', { tenant: 'globex' }).catch(problemOf)).toBe('other-tenant');
    const other = Agent.create({ provider: scriptedModel([]), model: 'm', id: 'other' }).durable(store).build();
    expect(await other.recover('r-6', { tenant: 'acme' }).catch(problemOf)).toBe('other-agent');
    const plain = Agent.create({ provider: scriptedModel([]), model: 'm' }).build();
    await expect(plain.recover('r-6')).rejects.toThrow(AgentConfigurationError);
    const lease = await store.acquire('junk');
    await store.save(lease, { agentId: 'refunds', status: 'running', state: { run: { runId: 'another' } } });
    expect(await agent.recover('junk').catch(problemOf)).toBe('malformed');
    expect((await agent.recover('r-6', { tenant: 'acme' })).text).toBe('Refunded.');
  });

  it('fences out the owner a recovery replaced: its next checkpoint is refused and it stops', async () => {
    const store = memoryRunStore();
    const effects = world();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = tool({ name: 'lookup', description: 'Looks up', input: Type.Object({ order: Type.String() }), effect: 'none', execute: async () => (await held, 'found') });
    const stale = Agent.create({ provider: scriptedModel([{ toolCalls: [{ id: 'l1', name: 'lookup', arguments: { order: 'A' } }] }, 'late']), model: 'm', id: 'refunds' }).tool(slow).durable(store).build();
    const running = stale.run('look', { runId: 'r-7' }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const { agent } = refunds(store, ['recovered'], effects);
    const recovered = await agent.recover('r-7');
    expect(recovered.text).toBe('recovered');
    release();
    expect(StaleRunOwnerError.isInstance(await running)).toBe(true);
    expect((await store.load('r-7'))?.state).toMatchObject({ result: { text: 'recovered' } });
  });

  it('gives memory the exchange once: a recovered run loads the conversation again and appends when it ends', async () => {
    const store = memoryRunStore();
    const memory = new InMemoryStore();
    await memory.append('c-1', [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: [{ type: 'text', text: 'noted' }] }]);
    const effects = world();
    const options = { runId: 'r-8', conversationId: 'c-1' };
    await expect(refunds(crashing(store, (state) => 'run' in state && state.run.step === 2 && state.run.next.type === 'ask-model'), SCRIPT, effects, memory).agent.run('refund A-1', options)).rejects.toThrow(Crash);
    expect(await memory.load('c-1')).toHaveLength(2);
    const { agent, model } = refunds(store, SCRIPT.slice(2), effects, memory);
    await agent.recover('r-8');
    expect(model.requests[0]?.messages[0]).toMatchObject({ role: 'user', content: 'earlier' });
    const kept = await memory.load('c-1');
    expect(kept.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['earlier', 'refund A-1']);
    // Its own exchange once: the input, two tool turns with their results, the answer.
    expect(kept).toHaveLength(2 + 6);
  });

  it('a streamed durable run checkpoints like run() does, and recovers', async () => {
    const store = memoryRunStore();
    const effects = world();
    const stream = refunds(crashing(store, outcomeWritten('l1')), SCRIPT, effects).agent.stream('refund A-1', { runId: 'r-10' });
    await expect(stream.result).rejects.toThrow(Crash);
    const { agent, model } = refunds(store, SCRIPT.slice(1), effects);
    const result = await agent.recover('r-10');
    expect(result.status).toBe('complete');
    expect(model.calls).toBe(2);
    expect(effects.emails).toEqual(['refunded 40']);
    expect(result.usage.modelCalls).toBe(3);
  });
});
