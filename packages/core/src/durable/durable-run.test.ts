import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, DurableRunError, InMemoryStore, type JournalEntry, memoryRunStore, RunStateError, StaleRunOwnerError, tool } from '../index';
import { asSuspended, scriptedModel } from '../testing/index';
import { KEY, Crash, crashing, recording, intentOf, outcomeOf, journalOf, callIdOf, refunds, world, SCRIPT, problemOf } from './durable-fixture';

describe('durable runs: the journal, and recovery after a crash', () => {
  it('appends an entry for every step and every tool call (intent before, outcome after), never rewriting one, and ends with the result', async () => {
    const base = memoryRunStore();
    const { store, appends, entries } = recording(base);
    const effects = world();
    const { agent } = refunds(store, SCRIPT, effects);
    const result = await agent.run('refund A-1', { runId: 'r-1' });
    expect(result.text).toBe('Refunded.');
    const label = (entry: JournalEntry) => `${entry.type}${entry.intent ? ` ${entry.intent.toolName}` : ''}${entry.outcome ? ` ${entry.outcome.toolName}` : ''}`;
    // The input, then each step; a turn's calls: each intent and outcome as it lands (the two calls of the second turn side by side).
    expect(entries().map(label)).toEqual([
      'input',
      'model-turn',
      'tool-intent lookup',
      'tool-outcome lookup',
      'tool-results',
      'model-turn',
      'tool-intent credit',
      'tool-intent email',
      'tool-outcome credit',
      'tool-outcome email',
      'tool-results',
      'answer',
      'end',
    ]);
    expect(appends.map((append) => append.status)).toEqual([...Array.from({ length: 12 }, () => 'running'), 'complete']);
    // Every call's intent lands before its outcome, in an earlier append.
    const written = entries();
    for (const [index, entry] of written.entries()) {
      if (entry.type !== 'tool-outcome') continue;
      const intent = written.findIndex((earlier) => earlier.type === 'tool-intent' && earlier.intent?.toolCallId === entry.outcome?.toolCallId);
      expect(intent).toBeGreaterThanOrEqual(0);
      expect(intent).toBeLessThan(index);
    }
    // The store holds exactly what was appended, in order: nothing was rewritten, nothing is missing.
    const stored = await base.load('r-1');
    expect(stored).toMatchObject({ status: 'complete', agentId: 'refunds', version: 13 });
    expect(stored?.entries).toEqual(written);
    expect(written.map((entry) => entry.seq)).toEqual(written.map((_, index) => index));
    expect(written.at(-1)).toMatchObject({ type: 'end', end: { text: 'Refunded.' } });
    // Recovering it gives the result back from the journal, running nothing.
    const again = refunds(base, [], effects);
    expect(await again.agent.recover('r-1')).toMatchObject({ status: 'complete', text: 'Refunded.' });
    expect(again.model.calls).toBe(0);
    expect(effects.emails).toEqual(['refunded 40']);
  });

});

describe('durable runs: the journal, and recovery after a crash (continued)', () => {
  it('recovers a run killed after a tool ran: finished calls and model calls are not made again, an interrupted idempotent call runs again with its key', async () => {
    const store = memoryRunStore();
    const first = world();
    const credited: string[] = [];
    const dying = refunds(crashing(store, outcomeOf('credit')), SCRIPT, first);
    await expect(dying.agent.run('refund A-1', { runId: 'r-2' })).rejects.toThrow(Crash);
    credited.push(...first.credits.keys());
    // credit and email ran side by side: both started, neither outcome was written.
    expect(first.emails).toEqual(['refunded 40']);
    const journal = await journalOf(store, 'r-2');
    expect(journal.filter(intentOf('credit'))).toHaveLength(1);
    expect(journal.filter(intentOf('email'))).toHaveLength(1);
    expect(journal.filter((entry) => entry.type === 'tool-outcome').map((entry) => entry.outcome?.toolName)).toEqual(['lookup']);
    // Another process: the same agent over the same store, whose model has only the last answer left.
    const recovering = refunds(store, ['Refunded.'], first);
    first.credits.clear();
    const suspended = asSuspended(await recovering.agent.recover('r-2'));
    expect(recovering.model.calls).toBe(0);
    expect(first.lookups).toBe(1);
    // The idempotent credit ran again with the same key; the email (once) waits for a person.
    const creditKey = `r-2:${callIdOf(journal, 'credit')}`;
    expect([...credited, ...first.credits.keys()]).toEqual([creditKey, creditKey]);
    expect(suspended.status).toBe('suspended');
    expect(suspended.unknownOutcomes.map((call) => [call.toolCallId, call.toolName])).toEqual([[callIdOf(journal, 'email'), 'email']]);
    const emailId = suspended.unknownOutcomes[0]?.toolCallId as string;
    const result = await recovering.agent.resume(suspended.state, { outcomes: [{ id: emailId, result: 'sent' }] });
    expect(result.status).toBe('complete');
    expect(result.text).toBe('Refunded.');
    expect(recovering.model.calls).toBe(1);
    expect(first.emails).toEqual(['refunded 40']);
    expect(result.usage.modelCalls).toBe(3);
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(['lookup', 'credit', 'email']);
    expect(result.toolCalls.map((call) => call.toolCallId)).toEqual([callIdOf(journal, 'lookup'), callIdOf(journal, 'credit'), emailId]);
    expect(result.messages.filter((message) => message.role === 'assistant')).toHaveLength(3);
    // Recovering a finished run gives its result back and runs nothing.
    const again = refunds(store, [], first);
    expect((await again.agent.recover('r-2')).text).toBe('Refunded.');
    expect(again.model.calls).toBe(0);
    expect(first.emails).toEqual(['refunded 40']);
  });

  it('a run killed between two steps goes on at the next step, asking the model only what it had not answered', async () => {
    const store = memoryRunStore();
    const effects = world();
    await expect(refunds(crashing(store, outcomeOf('lookup')), SCRIPT, effects).agent.run('refund A-1', { runId: 'r-9' })).rejects.toThrow(Crash);
    expect(effects.lookups).toBe(1);
    const { agent, model } = refunds(store, SCRIPT.slice(1), effects);
    const result = await agent.recover('r-9');
    // The lookup's outcome was never written: it reads only (none), so it ran again.
    expect(effects.lookups).toBe(2);
    expect(result.status).toBe('complete');
    expect(model.calls).toBe(2);
    expect(effects.emails).toEqual(['refunded 40']);
    expect([...effects.credits.keys()]).toEqual([`r-9:${callIdOf(await journalOf(store, 'r-9'), 'credit')}`]);
  });

});

describe('durable runs: unknown outcomes, reused ids', () => {
  it("never runs a 'once' call again blindly: the recovered run suspends with it as an unknown outcome, and resume settles it", async () => {
    const store = memoryRunStore();
    const effects = world();
    const dying = refunds(crashing(store, outcomeOf('email')), SCRIPT, effects);
    await expect(dying.agent.run('refund A-1', { runId: 'r-3' })).rejects.toThrow(Crash);
    expect(effects.emails).toEqual(['refunded 40']);
    const emailId = callIdOf(await journalOf(store, 'r-3'), 'email') as string;
    expect(typeof emailId).toBe('string');
    const { agent, model } = refunds(store, ['Refunded.', 'Refunded again.'], effects);
    const suspended = asSuspended(await agent.recover('r-3'));
    expect(suspended.status).toBe('suspended');
    expect(suspended.pendingApprovals).toEqual([]);
    expect(suspended.unknownOutcomes).toEqual([{ toolCallId: emailId, toolName: 'email', arguments: { text: 'refunded 40' }, idempotencyKey: `r-3:${emailId}` }]);
    expect(model.calls).toBe(0);
    expect(effects.emails).toEqual(['refunded 40']);
    // Approval decisions do not settle an unknown outcome, and ids must be the run's.
    const problem = (error: unknown) => (RunStateError.isInstance(error) ? `${error.problem}: ${error.message}` : error);
    expect(await agent.resume(suspended.state, { approve: [emailId] }).catch(problem)).toMatch(/bad-decisions: .*unknown outcome: settle it with outcomes or retry/);
    expect(await agent.resume(suspended.state, { retry: ['x9'] }).catch(problem)).toMatch(/bad-decisions: .*"x9" is not an unknown outcome/);
    expect(await agent.resume(suspended.state, {}).catch(problem)).toContain(`undecided: "${emailId}"`);
    const done = await agent.resume(JSON.parse(JSON.stringify(suspended.state)), { outcomes: [{ id: emailId, result: 'sent' }] });
    expect(done.status).toBe('complete');
    expect(effects.emails).toEqual(['refunded 40']);
    expect(done.toolCalls.find((call) => call.toolCallId === emailId)?.output).toBe('sent');
    expect(model.calls).toBe(1);
  });

  it("retries an unknown 'once' call when told to, with the same idempotency key, once", async () => {
    const store = memoryRunStore();
    const effects = world();
    const dying = refunds(crashing(store, intentOf('email')), SCRIPT, effects);
    await expect(dying.agent.run('refund A-1', { runId: 'r-4' })).rejects.toThrow(Crash);
    // The intent never landed: the email did not run, and it is not unknown: it runs on recovery.
    expect(effects.emails).toEqual([]);
    expect((await journalOf(store, 'r-4')).some(intentOf('email'))).toBe(false);
    const { agent } = refunds(store, ['Refunded.'], effects);
    const result = await agent.recover('r-4');
    expect(result.status).toBe('complete');
    expect(effects.emails).toEqual(['refunded 40']);

    const killed = world();
    const other = memoryRunStore();
    await expect(refunds(crashing(other, outcomeOf('email')), SCRIPT, killed).agent.run('refund', { runId: 'r-5' })).rejects.toThrow(Crash);
    const recovering = refunds(other, ['Refunded.'], killed).agent;
    const suspended = asSuspended(await recovering.recover('r-5'));
    const emails = killed.emails.length;
    const emailId = suspended.unknownOutcomes[0]?.toolCallId as string;
    const retried = await recovering.resume(suspended.state, { retry: [emailId] });
    expect(retried.status).toBe('complete');
    expect(killed.emails.length).toBe(emails + 1);
  });

  it('refuses run() with an id the store holds, naming recover; recover refuses what it cannot go on with', async () => {
    const store = memoryRunStore();
    const effects = world();
    await expect(refunds(crashing(store, intentOf('lookup')), SCRIPT, effects).agent.run('refund', { runId: 'r-6', tenant: 'acme' })).rejects.toThrow(Crash);
    const { agent, model } = refunds(store, SCRIPT, effects);
    const refused = await agent.run('refund again', { runId: 'r-6' }).catch((error: unknown) => error);
    expect(DurableRunError.isInstance(refused) && refused.problem).toBe('exists');
    expect(String((refused as Error).message)).toMatch(/unfinished.*agent\.recover\("r-6"\)/);
    expect(await agent.recover('nothing').catch(problemOf)).toBe('not-found');
    expect(await agent.recover('r-6').catch(problemOf)).toBe('other-tenant');
    expect(await agent.recover('r-6', { tenant: 'globex' }).catch(problemOf)).toBe('other-tenant');
    const other = Agent.create({ provider: scriptedModel([]), model: 'm', id: 'other' }).durable(store).build();
    expect(await other.recover('r-6', { tenant: 'acme' }).catch(problemOf)).toBe('other-agent');
    const plain = Agent.create({ provider: scriptedModel([]), model: 'm' }).build();
    await expect(plain.recover('r-6')).rejects.toThrow(AgentConfigurationError);
    // What Keel did not write: a journal of no entries, and entries that are not Keel's.
    await store.append(await store.acquire('junk'), { agentId: 'refunds', status: 'running', entries: [] });
    expect(await agent.recover('junk').catch(problemOf)).toBe('malformed');
    await store.append(await store.acquire('junk-2'), { agentId: 'refunds', status: 'running', entries: [{ run: { runId: 'another' } }] });
    expect(['malformed', 'tampered']).toContain(await agent.recover('junk-2').catch(problemOf));
    expect(model.calls).toBe(0);
    expect(effects.lookups).toBe(0);
    expect((await agent.recover('r-6', { tenant: 'acme' })).text).toBe('Refunded.');
  });

});

describe('durable runs: fences, memory and streams', () => {
  it('fences out the owner a recovery replaced: its next append is refused, it stops, and nothing of it lands', async () => {
    const store = memoryRunStore();
    const effects = world();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = tool({ name: 'lookup', description: 'Looks up', input: Type.Object({ order: Type.String() }), effect: 'none', execute: async () => (await held, 'found by the stale owner') });
    const stale = Agent.create({ provider: scriptedModel([{ toolCalls: [{ id: 'l1', name: 'lookup', arguments: { order: 'A' } }] }, 'late']), model: 'm', id: 'refunds', stateKey: KEY }).tool(slow).durable(store).build();
    const running = stale.run('look', { runId: 'r-7' }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const before = (await store.load('r-7'))?.entries as JournalEntry[];
    expect(before.map((entry) => entry.type)).toEqual(['input', 'model-turn', 'tool-intent']);
    const { agent } = refunds(store, ['recovered'], effects);
    const recovered = await agent.recover('r-7');
    expect(recovered.text).toBe('recovered');
    release();
    expect(StaleRunOwnerError.isInstance(await running)).toBe(true);
    const stored = await store.load('r-7');
    expect(stored?.status).toBe('complete');
    const entries = stored?.entries as JournalEntry[];
    expect(entries.at(-1)).toMatchObject({ type: 'end', end: { text: 'recovered' } });
    // The journal the recovery read is kept as it was, and went on from with the recovery's entries only.
    expect(entries.slice(0, before.length)).toEqual(before);
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index));
    expect(entries.filter((entry) => entry.type === 'tool-outcome').map((entry) => entry.outcome?.output)).toEqual([JSON.stringify({ order: 'A', amount: 40 })]);
    expect(JSON.stringify(entries)).not.toContain('found by the stale owner');
    expect(await agent.recover('r-7')).toMatchObject({ status: 'complete', text: 'recovered' });
  });

  it('gives memory the exchange once: a recovered run loads the conversation again and appends when it ends', async () => {
    const store = memoryRunStore();
    const memory = new InMemoryStore();
    await memory.append('c-1', [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: [{ type: 'text', text: 'noted' }] }]);
    const effects = world();
    const options = { runId: 'r-8', conversationId: 'c-1' };
    // Killed as step 2's results are written: the run was about to ask the model for its answer.
    const afterStep2 = (entry: JournalEntry) => entry.type === 'tool-results' && entry.step === 2;
    await expect(refunds(crashing(store, afterStep2), SCRIPT, effects, memory).agent.run('refund A-1', options)).rejects.toThrow(Crash);
    expect(await memory.load('c-1')).toHaveLength(2);
    const { agent, model } = refunds(store, SCRIPT.slice(2), effects, memory);
    await agent.recover('r-8');
    expect(model.requests[0]?.messages[0]).toMatchObject({ role: 'user', content: 'earlier' });
    const kept = await memory.load('c-1');
    expect(kept.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['earlier', 'refund A-1']);
    // Its own exchange once: the input, two tool turns with their results, the answer.
    expect(kept).toHaveLength(2 + 6);
    // Memory's conversation is never journaled: the journal holds the run's own messages only.
    expect(JSON.stringify(await journalOf(store, 'r-8'))).not.toContain('earlier');
  });

  it('a streamed durable run journals like run() does, and recovers', async () => {
    const store = memoryRunStore();
    const effects = world();
    const stream = refunds(crashing(store, outcomeOf('lookup')), SCRIPT, effects).agent.stream('refund A-1', { runId: 'r-10' });
    await expect(stream.result).rejects.toThrow(Crash);
    expect((await journalOf(store, 'r-10')).map((entry) => entry.type)).toEqual(['input', 'model-turn', 'tool-intent']);
    const { agent, model } = refunds(store, SCRIPT.slice(1), effects);
    const result = await agent.recover('r-10');
    expect(result.status).toBe('complete');
    expect(model.calls).toBe(2);
    expect(effects.emails).toEqual(['refunded 40']);
    expect(result.usage.modelCalls).toBe(3);
  });

});
