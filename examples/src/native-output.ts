import { pathToFileURL } from 'node:url';
import { Agent, type ModelTarget } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { anthropic } from '@keel/providers/anthropic';
import { Type } from '@sinclair/typebox';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * Native structured output. With the default output mode `auto`, an agent on a model that
 * declares native output (Claude 4.5 and later, gpt-4o and later, ...) sends its output schema to
 * the provider's constrained decoder, lowered to what that decoder accepts; Keel still validates
 * the full schema, so a bound the decoder could not enforce is re-asked like any other mistake.
 * Streaming shows the answer as it is written, as typed partial values.
 *
 * Run it: `pnpm tsx --conditions=@keel/source src/native-output.ts` (offline, on a scripted model
 * that lowers schemas as Anthropic does), or with ANTHROPIC_API_KEY set, against the real API.
 */

export const Invoice = Type.Object({
  customer: Type.String({ minLength: 1, maxLength: 40 }),
  lines: Type.Array(Type.Object({ item: Type.String(), quantity: Type.Integer({ minimum: 1, maximum: 100 }), unitPrice: Type.Number({ minimum: 0 }) }), { minItems: 1 }),
  currency: Type.Union([Type.Literal('EUR'), Type.Literal('USD')]),
  dueDate: Type.Optional(Type.String({ format: 'date' })),
});

const QUESTION = 'Bill ACME GmbH for 3 keyboards at 49.90 and 250 cables at 2.50, in euros, due 2026-12-31.';

/**
 * The offline model: a scripted Claude that declares native output and lowers schemas with the
 * Anthropic adapter's own rules. Its first answer breaks `maximum` (which Anthropic's decoder
 * cannot enforce, so lowering removed it); the second is right.
 */
export function offlineTarget(): ModelTarget {
  const claude = anthropic({ apiKey: 'offline' });
  const lines = '"lines":[{"item":"keyboard","quantity":3,"unitPrice":49.9},{"item":"cable","quantity":QUANTITY,"unitPrice":2.5}]';
  const answer = (quantity: number) => `{"customer":"ACME GmbH",${lines.replace('QUANTITY', String(quantity))},"currency":"EUR","dueDate":"2026-12-31"}`;
  const provider = scriptedModel([answer(250), answer(100)], {
    name: 'scripted-claude',
    capabilities: { nativeOutput: true, strictTools: true },
    lowerSchema: (schema, purpose) => claude.lowerSchema?.(schema, purpose),
  });
  return { provider, model: 'claude-sonnet-4-6' };
}

/** The invoice agent: the output schema in the default mode (`auto`). */
export function invoiceAgent(target: ModelTarget = offlineTarget()) {
  return Agent.create({ ...target, maxTokens: 1024 })
    .system('You write invoices as JSON. At most 100 of one item per line: split larger quantities over several lines.')
    .outputSchema(Invoice);
}

/** Streams one invoice, printing the partial values, the events that explain them, and the validated value. */
export async function runNativeOutput(target: ModelTarget = offlineTarget(), log: (line: string) => void = console.log): Promise<unknown> {
  const agent = invoiceAgent(target)
    .on('model.request', (event) => log(`request ${event.attempt}: output mode ${event.outputMode ?? 'none'}`))
    .on('output.schema-lowered', (event) => log(`the decoder will not enforce: ${event.changes}`))
    .on('output.mode-downgraded', (event) => log(`output mode ${event.from} → ${event.to} (${event.reason}): ${event.detail}`))
    .build();
  const stream = agent.stream(QUESTION, { textMode: 'pass-through' });
  for await (const part of stream) {
    if (part.type === 'partial-output') log(`  partial (attempt ${part.attempt}): ${JSON.stringify(part.value)}`);
    else if (part.type === 'validation-failed') log(`  rejected attempt ${part.attempt}: ${part.message}`);
    else if (part.type === 'retry' && part.discardPartialOutput) log('  (dropping the partials of the failed attempt)');
    else if (part.type === 'output') log(`  validated: ${JSON.stringify(part.value)}`);
  }
  const result = await stream.result;
  // This agent has no tool that needs approval: its runs complete (the narrowing types `value`).
  if (result.status !== 'complete') throw new Error('the run suspended');
  log(`${result.attempts.length} model calls: ${result.attempts.map((attempt) => attempt.status).join(', ')}`);
  return result.value;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runNativeOutput(providerFromEnv() ?? offlineTarget());
