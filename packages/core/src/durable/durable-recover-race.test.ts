import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, DurableRunError, memoryRunStore, type RunStore, StaleRunOwnerError, tool } from '../index';
import { asSuspended, type ScriptedReply, scriptedModel } from '../testing/index';
import { KEY, Crash, crashing, recording, intentOf, outcomeOf, journalOf, refunds, world, SCRIPT, problemOf } from './durable-fixture';

/** `store`, except that the next `load` resolves only when `wake()` is called, after it read: a process paused (a long GC) between its read and its lease. */
function pausingLoad(store: RunStore) {
  let next: Promise<void> | undefined;
  let wake = (): void => undefined;
  let read = (): void => undefined;
  const hasRead = new Promise<void>((resolve) => (read = resolve));
  return {
    store: {
      ...store,
      load: async (runId: string) => {
        const pause = next;
        next = undefined;
        const loaded = await store.load(runId);
        if (pause) {
          read();
          await pause;
        }
        return loaded;
      },
    } satisfies RunStore,
    pauseNext: () => void (next = new Promise<void>((resolve) => (wake = resolve))),
    hasRead,
    wake: () => wake(),
  };
}

describe('recover: a read paused before its lease, and a journal changed in the store', () => {
  it("a recover paused between its read and its lease, while another recover finished the run, never runs the run's 'once' tool again", async () => {
    const base = memoryRunStore();
    const effects = world();
    // Killed before the email's intent landed: the email did not run, and a recovery runs it.
    await expect(refunds(crashing(base, intentOf('email')), SCRIPT, effects).agent.run('refund A-1', { runId: 'r-p' })).rejects.toThrow(Crash);
    expect(effects.emails).toEqual([]);
    const pausing = pausingLoad(base);
    const sleeper = refunds(pausing.store, ['Refunded (sleeper).'], effects);
    pausing.pauseNext();
    const paused = sleeper.agent.recover('r-p').catch((error: unknown) => error);
    await pausing.hasRead;
    // Another process recovers the run meanwhile and finishes it: the email is sent.
    const other = refunds(base, ['Refunded.'], effects);
    expect(await other.agent.recover('r-p')).toMatchObject({ status: 'complete', text: 'Refunded.' });
    expect(effects.emails).toEqual(['refunded 40']);
    const finished = await base.load('r-p');
    pausing.wake();

    // The sleeper gives the finished run's result (or refuses): it never goes on from the journal it read first.
    const woke = await paused;
    if (DurableRunError.isInstance(woke)) expect(woke.problem).toBe('busy');
    else expect(woke).toMatchObject({ status: 'complete', text: 'Refunded.' });
    expect(effects.emails).toEqual(['refunded 40']);
    expect(sleeper.model.calls).toBe(0);
    expect(await base.load('r-p')).toEqual(finished);
  });

});

describe('recover: a read paused before its lease, and a journal changed in the store (continued)', () => {
  it('a recover paused between its read and its lease, waking while the other recover is still sending the email, never sends it twice', async () => {
    const base = memoryRunStore();
    const sent: string[] = [];
    let emailing = (): void => undefined;
    const emailStarted = new Promise<void>((resolve) => (emailing = resolve));
    let finishEmail = (): void => undefined;
    const emailMayEnd = new Promise<void>((resolve) => (finishEmail = resolve));
    const agentOver = (store: RunStore, script: readonly ScriptedReply[], slow: boolean) => {
      const email = tool({
        name: 'email',
        description: 'Emails the customer',
        input: Type.Object({ text: Type.String() }),
        execute: async ({ text }) => {
          if (slow) {
            emailing();
            await emailMayEnd;
          }
          sent.push(text);
        },
      });
      return Agent.create({ provider: scriptedModel(script), model: 'm', id: 'mailer', stateKey: KEY }).tool(email).durable(store).build();
    };
    const EMAIL: readonly ScriptedReply[] = [{ toolCalls: [{ id: 'e1', name: 'email', arguments: { text: 'hello' } }] }, 'Sent.'];
    await expect(agentOver(crashing(base, intentOf('email')), EMAIL, false).run('email them', { runId: 'r-q' })).rejects.toThrow(Crash);
    const pausing = pausingLoad(base);
    pausing.pauseNext();
    const paused = agentOver(pausing.store, ['Sent (sleeper).'], false).recover('r-q').catch((error: unknown) => error);
    await pausing.hasRead;
    const running = agentOver(base, ['Sent.'], true).recover('r-q').catch((error: unknown) => error);
    await emailStarted;
    pausing.wake();
    const woke = await paused;
    finishEmail();
    const other = await running;

    // Whichever goes on, the email is sent once: a recover that took the run from the other finds the email's intent without an outcome, an unknown outcome.
    expect(sent).toEqual(['hello']);
    const outcomes = [woke, other].map((value) => (DurableRunError.isInstance(value) || StaleRunOwnerError.isInstance(value) ? 'refused' : (value as { status?: string }).status));
    expect(outcomes.filter((outcome) => outcome === 'complete' || outcome === 'suspended').length).toBeGreaterThanOrEqual(1);
    const journal = await journalOf(base, 'r-q');
    expect(journal.filter(intentOf('email'))).toHaveLength(1);
    expect(journal.map((entry) => entry.seq)).toEqual(journal.map((_, index) => index));
  });

  it('refuses a journal changed in the store by one byte (a message, a tool output, the stored tenant, a removed entry) as `tampered`: nothing runs', async () => {
    const base = memoryRunStore();
    const effects = world();
    await expect(refunds(crashing(base, outcomeOf('email')), SCRIPT, effects, undefined).agent.run('refund A-1', { runId: 'r-t', tenant: 'acme' })).rejects.toThrow(Crash);
    const original = (await base.load('r-t')) as NonNullable<Awaited<ReturnType<RunStore['load']>>>;
    const json = JSON.stringify(original.entries);
    expect(json).toContain('refund A-1');
    /** The stored journal as a store that changed it would give it back. */
    const changes: Record<string, (stored: typeof original) => typeof original> = {
      'one character of the input message': (stored) => ({ ...stored, entries: JSON.parse(JSON.stringify(stored.entries).replace('refund A-1', 'refund A-2')) as unknown[] }),
      "one digit of a call's arguments": (stored) => ({ ...stored, entries: JSON.parse(JSON.stringify(stored.entries).replace('"amount":40', '"amount":41')) as unknown[] }),
      "one character of a tool's output": (stored) => ({ ...stored, entries: JSON.parse(JSON.stringify(stored.entries).replace('\\"amount\\":40', '\\"amount\\":41')) as unknown[] }),
      'an entry removed from the middle': (stored) => ({ ...stored, entries: stored.entries.filter((_, index) => index !== 2) }),
      'two entries swapped': (stored) => ({ ...stored, entries: [stored.entries[0], stored.entries[2], stored.entries[1], ...stored.entries.slice(3)] }),
    };
    for (const [what, change] of Object.entries(changes)) {
      const changed = change(original);
      expect(JSON.stringify(changed.entries), what).not.toBe(json);
      const store: RunStore = { ...base, load: async (runId) => (runId === 'r-t' ? change((await base.load(runId)) as typeof original) : base.load(runId)) };
      const { agent, model } = refunds(store, ['Refunded.'], effects);
      const refused = await agent.recover('r-t', { tenant: 'acme' }).catch((error: unknown) => error);
      expect({ what, problem: problemOf(refused) }).toEqual({ what, problem: 'tampered' });
      expect(model.calls).toBe(0);
    }
    // The store's own record of the tenant changed: the journal's (chained) input names another.
    const relabeled: RunStore = { ...base, load: async (runId) => ({ ...((await base.load(runId)) as typeof original), tenant: 'globex' }) };
    const { agent, model } = refunds(relabeled, ['Refunded.'], effects);
    expect(await agent.recover('r-t', { tenant: 'globex' }).catch(problemOf)).toBe('tampered');
    expect(model.calls).toBe(0);
    // Nothing ran, and nothing was appended: the journal is as the killed run left it.
    expect(effects.emails).toEqual(['refunded 40']);
    expect(effects.lookups).toBe(1);
    expect(await base.load('r-t')).toEqual(original);
    // Unchanged, it recovers.
    expect(asSuspended(await refunds(base, ['Refunded.'], effects).agent.recover('r-t', { tenant: 'acme' })).unknownOutcomes.map((call) => call.toolName)).toEqual(['email']);
  });
});

describe('durable agents: what they need, and what they append', () => {
  it('refuses at build() a durable agent on a shared store without a stateKey, naming stateKey', () => {
    const shared: RunStore = { ...memoryRunStore(), shared: true };
    const build = () => Agent.create({ provider: scriptedModel([]), model: 'm', id: 'refunds' }).durable(shared).build();
    expect(build).toThrow(AgentConfigurationError);
    expect(build).toThrow(/stateKey/);
    // With a key, the same store is accepted.
    expect(() => Agent.create({ provider: scriptedModel([]), model: 'm', id: 'refunds', stateKey: KEY }).durable(shared).build()).not.toThrow();
  });

  it('appends what each step added, never again: the bytes a run appends grow linearly with its steps', async () => {
    /** A run of `steps` tool steps (one lookup each), then the answer: the JSON bytes it appended and the entries. */
    const runOf = async (steps: number) => {
      const { store, appends, entries } = recording(memoryRunStore());
      const lookup = tool({ name: 'lookup', description: 'Looks an order up', input: Type.Object({ order: Type.String() }), effect: 'none', execute: ({ order }) => ({ order, status: 'shipped', note: 'x'.repeat(200) }) });
      const script: ScriptedReply[] = Array.from({ length: steps }, (_, index) => ({ toolCalls: [{ id: `l${index}`, name: 'lookup', arguments: { order: `A-${index}` } }] }));
      const agent = Agent.create({ provider: scriptedModel([...script, 'Done.']), model: 'm', id: 'refunds', stateKey: KEY, maxSteps: 50 }).tool(lookup).durable(store).build();
      expect((await agent.run('look them all up', { runId: `r-${steps}` })).text).toBe('Done.');
      const stored = await store.load(`r-${steps}`);
      expect(stored?.entries).toEqual(entries());
      return { bytes: appends.reduce((total, append) => total + JSON.stringify(append.entries).length, 0), entries: entries() };
    };
    const five = await runOf(5);
    const twenty = await runOf(20);
    expect(twenty.bytes).toBeGreaterThan(five.bytes);
    expect(twenty.bytes).toBeLessThanOrEqual(4.5 * five.bytes);
    for (const { entries } of [five, twenty]) {
      // No entry repeats an earlier one: what an entry holds besides its number, time and chain is new.
      const bodies = entries.map(({ seq: _seq, at: _at, mac: _mac, elapsedMs: _elapsed, ...body }) => JSON.stringify(body));
      expect(new Set(bodies).size).toBe(bodies.length);
      // Each message, step record and model call is in one entry only.
      for (const list of ['messages', 'steps', 'attempts'] as const) {
        const items = entries.flatMap((entry) => (entry[list] ?? []).map((item) => JSON.stringify(item)));
        expect(new Set(items).size, list).toBe(items.length);
      }
    }
  });
});
