/** What the durable-run tests share: a refunds agent, a store that dies at a chosen append, readers of a journal. */
import { Type } from '@sinclair/typebox';
import { Agent, DurableRunError, type JournalEntry, type MemoryStore, type RunStore, tool } from '../index';
import { type ScriptedReply, scriptedModel } from '../testing/index';
import type { RunAppend } from '../contracts/run-store';

export const KEY = 'k'.repeat(32);

/** What a process's death looks like to the run: the append it was making never lands, nor any after it. */
export class Crash extends Error {}

/** A store that dies (refuses this and every later append) at the first append holding an entry `at` picks. */
export function crashing(store: RunStore, at: (entry: JournalEntry) => boolean): RunStore {
  let dead = false;
  return {
    ...store,
    append: (lease, append) => {
      if (dead || (append.entries as readonly JournalEntry[]).some(at)) {
        dead = true;
        return Promise.reject(new Crash('the process died'));
      }
      return store.append(lease, append);
    },
  };
}

/** A store that keeps a copy of every append it was handed (and took), in order. */
export function recording(store: RunStore) {
  const appends: RunAppend[] = [];
  const recorded: RunStore = {
    ...store,
    append: async (lease, append) => {
      const version = await store.append(lease, append);
      appends.push(JSON.parse(JSON.stringify(append)) as RunAppend);
      return version;
    },
  };
  return { store: recorded, appends, entries: () => appends.flatMap((append) => append.entries as JournalEntry[]) };
}

/** The intent (about to run) and the outcome (finished) of the call of `tool`: each tool is called once in these runs. */
export const intentOf = (name: string) => (entry: JournalEntry) => entry.type === 'tool-intent' && entry.intent?.toolName === name;
export const outcomeOf = (name: string) => (entry: JournalEntry) => entry.type === 'tool-outcome' && entry.outcome?.toolName === name;

/** The journal of a run as its store holds it. */
export const journalOf = async (store: RunStore, runId: string) => ((await store.load(runId))?.entries ?? []) as JournalEntry[];

/** The id the journal gave the call of `name` (from its intent). */
export const callIdOf = (entries: readonly JournalEntry[], name: string) => entries.find(intentOf(name))?.intent?.toolCallId;

/** A refunds agent: `lookup` reads (none), `credit` writes by key (idempotent), `email` sends (once). */
export function refunds(store: RunStore, script: readonly ScriptedReply[], world: { credits: Map<string, number>; emails: string[]; lookups: number }, memory?: MemoryStore) {
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

export const world = () => ({ credits: new Map<string, number>(), emails: [] as string[], lookups: 0 });

export const SCRIPT: readonly ScriptedReply[] = [
  { toolCalls: [{ id: 'l1', name: 'lookup', arguments: { order: 'A-1' } }] },
  {
    toolCalls: [
      { id: 'c1', name: 'credit', arguments: { amount: 40 } },
      { id: 'e1', name: 'email', arguments: { text: 'refunded 40' } },
    ],
  },
  'Refunded.',
];

export const problemOf = (error: unknown) => (DurableRunError.isInstance(error) ? error.problem : error);
