/**
 * A run taken step by step, stopped, and continued elsewhere: `agent.iter()` gives each step of a
 * refund agent with the journal entries it added; the run is stopped after its first step, its
 * journal saved as JSON (a queue message, a database row), and a new agent object (another
 * process, the same `stateKey`) continues it with `agent.iter({ journal })`. The lookup that ran
 * is not run again, the model is not asked again for the step it answered, and the result is the
 * one the run would have given without the stop.
 *
 * Offline on a scripted model; with ANTHROPIC_API_KEY (or OPENAI_API_KEY) set, against the real model.
 * Run it with: pnpm --filter @keel/examples exec tsx --conditions=@keel/source src/step-through.ts
 */
import { pathToFileURL } from 'node:url';
import { Agent, type JournalEntry, type ModelTarget, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import { providerFromEnv } from './providers/provider-from-env';

/** In production: 32 random bytes from your secret store, the same in every process. */
const STATE_KEY = 'example-state-key-do-not-use-in-production!';

/** The scripted model of the offline run: look the order up, then answer. */
function offlineTarget(): ModelTarget {
  const provider = scriptedModel((request) => {
    const done = request.messages.filter((message) => message.role === 'tool').length;
    if (done === 0) return { toolCalls: [{ id: 'lookup-1', name: 'lookup_order', arguments: { orderId: 'A-1182' } }] };
    return 'Order A-1182 was paid $50 and arrived damaged: it qualifies for a full refund.';
  });
  return { provider, model: 'scripted-demo' };
}

/** The refund agent; `lookups` counts the order lookups that ran. */
function refundAgent(target: ModelTarget, lookups: { count: number }) {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Looks an order up by id.',
    input: Type.Object({ orderId: Type.String() }),
    effect: 'none',
    execute: ({ orderId }) => ((lookups.count += 1), { orderId, paid: 50, status: 'damaged' }),
  });
  return Agent.create({ ...target, id: 'refunds', stateKey: STATE_KEY, maxSteps: 6 })
    .system('You decide refunds. Look the order up, then answer in one sentence.')
    .tool(lookupOrder)
    .build();
}

/** What the example shows: the stop, the journal, and the continued run's result. */
export interface StepThrough {
  readonly stoppedAfter: readonly string[];
  readonly journalBytes: number;
  readonly text: string;
  readonly lookups: number;
  readonly modelCalls: number;
}

export async function stepThrough(options: { readonly live: boolean; readonly log?: (line: string) => void }): Promise<StepThrough> {
  const log = options.log ?? ((line: string) => console.log(line));
  const target = options.live ? (providerFromEnv() ?? offlineTarget()) : offlineTarget();
  const lookups = { count: 0 };
  const first = refundAgent(target, lookups);
  const iteration = first.iter('Order A-1182 arrived broken. Refund?');
  for await (const step of iteration) {
    log(`step ${step.state.step}: ${step.entries.map((entry) => `#${entry.seq} ${entry.type}`).join(', ')} -> next: ${step.state.next.type}`);
    // Stop after the first step: the model asked for the lookup, which ran.
    if (step.entries.some((entry) => entry.type === 'tool-results')) break;
  }
  await iteration.result.catch((error: unknown) => log(`stopped: ${(error as Error).name}`));
  // Every entry the run wrote (those of a step cut off midway too): what a continuation needs.
  const journal: readonly JournalEntry[] = iteration.journal;
  const saved = JSON.stringify(journal);
  log(`journal saved: ${journal.length} entries, ${saved.length} bytes`);
  // Elsewhere: a new agent object with the same id and stateKey goes on from the saved journal.
  const result = await refundAgent(target, lookups).iter({ journal: JSON.parse(saved) as unknown[] }).result;
  log(`continued: ${result.text}`);
  log(`lookups run: ${lookups.count}; model calls in the run: ${result.usage.modelCalls}`);
  return { stoppedAfter: journal.map((entry) => entry.type), journalBytes: saved.length, text: result.text, lookups: lookups.count, modelCalls: result.usage.modelCalls };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await stepThrough({ live: true });
