import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, type ModelProvider, type ModelTarget } from '@keel/core';
import { cassette } from '@keel/evals';
import { Type } from '@sinclair/typebox';
import { offlineTarget } from './business-rules';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * Record once, replay offline. The first run goes to the model (scripted offline, or the real API
 * with ANTHROPIC_API_KEY set) through a cassette in `record` mode, which writes every call to a
 * JSON file; the second run, in `replay` mode, is answered from that file alone, with no network:
 * same requests, same answer, same attempts and cost. A changed prompt is a miss that names the
 * message that differs.
 *
 * Run it: `pnpm tsx --conditions=@keel/source src/cassettes.ts` (offline), or with ANTHROPIC_API_KEY set.
 */

const Triage = Type.Object({ summary: Type.String({ minLength: 1 }), queue: Type.Union([Type.Literal('billing'), Type.Literal('technical'), Type.Literal('shipping')]), refund: Type.Number({ minimum: 0, maximum: 1000 }) });
const TICKET = 'Ticket 7: the 4K TV (1,499 EUR) arrived with a cracked screen. The customer wants their money back.';

const triage = (provider: ModelProvider, model: string) =>
  Agent.create({ provider, model, maxTokens: 512 })
    .system('You triage support tickets. Answer with the JSON object only: summary, queue (billing, technical or shipping), refund in EUR (at most 1000).')
    .outputSchema(Triage)
    .build();

/** Records a run into a fresh cassette, replays it, and returns both results and the miss of a changed prompt. */
export async function runCassettes(target: ModelTarget = offlineTarget(), log: (line: string) => void = console.log) {
  const path = join(mkdtempSync(join(tmpdir(), 'keel-example-')), 'triage.json');
  const recorded = await triage(cassette(target.provider, { path, mode: 'record' }), target.model).run(TICKET);
  // This agent has no tool that needs approval: its runs complete (the narrowing types `value`).
  if (recorded.status !== 'complete') throw new Error('the run suspended');
  log(`recorded ${recorded.attempts.length} model calls to ${path}: ${JSON.stringify(recorded.value)}`);

  // Replay: the provider is never called (its key could be absent).
  const replayed = await triage(cassette(target.provider, { path, mode: 'replay' }), target.model).run(TICKET);
  if (replayed.status !== 'complete') throw new Error('the run suspended');
  log(`replayed offline: ${JSON.stringify(replayed.value)}, ${replayed.attempts.length} calls, ${replayed.usage.totalTokens} tokens`);

  const changed = await triage(cassette(target.provider, { path, mode: 'replay' }), target.model)
    .run(TICKET.replace('cracked', 'scratched'))
    .then(() => 'no miss', (error: unknown) => (error instanceof Error ? error.message : String(error)));
  log(`a changed ticket: ${changed.split('\n')[0]}`);
  return { recorded, replayed, changed };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runCassettes(providerFromEnv() ?? offlineTarget());
