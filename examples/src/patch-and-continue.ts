import { pathToFileURL } from 'node:url';
import { Agent, type ModelRequest, type ModelTarget } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { type Static, Type } from '@sinclair/typebox';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * Large answers recovered cheaply. An extraction of 60 order lines is cut at the token limit:
 * Keel continues it (an assistant prefill on Anthropic) instead of failing. The joined answer has
 * one bad price: the re-ask asks for only that value, `{"lines[37].price": 21.25}`, and Keel
 * applies it to the answer and validates the whole. Three calls, and the second and third write
 * only what was missing.
 *
 * Run it: `pnpm tsx --conditions=@keel/source src/patch-and-continue.ts` (offline, on a scripted
 * model), or with ANTHROPIC_API_KEY set, against the real API (the token limit cuts its answer;
 * whether it also gets a price wrong is up to the model).
 */

export const Order = Type.Object(
  {
    customer: Type.String(),
    lines: Type.Array(Type.Object({ sku: Type.String(), quantity: Type.Integer({ minimum: 1 }), price: Type.Number() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type Order = Static<typeof Order>;

/** The order the email describes: 60 lines. */
export const EXPECTED: Order = {
  customer: 'ACME GmbH',
  lines: Array.from({ length: 60 }, (_, index) => ({ sku: `PART-${String(index + 1).padStart(3, '0')}`, quantity: 1 + (index % 7), price: 4 + index * 0.25 })),
};

const EMAIL = `From: purchasing@acme.example (ACME GmbH)\nPlease send:\n${EXPECTED.lines.map((line) => `${line.quantity} x ${line.sku} at ${line.price} EUR`).join('\n')}`;

/**
 * The offline model: its answer has one bad price (`"21.25 EUR"`) and is cut at 60% of its length
 * (finish reason `length`); asked to continue, it writes the rest; asked for a patch, it sends
 * only the corrected value.
 */
export function offlineTarget(): ModelTarget {
  const written = JSON.parse(JSON.stringify(EXPECTED)) as { lines: Record<string, unknown>[] };
  (written.lines[37] as Record<string, unknown>).price = `${EXPECTED.lines[37]?.price.toFixed(2)} EUR`;
  const answer = JSON.stringify(written, null, 2);
  const cut = Math.floor(answer.length * 0.6);
  const provider = scriptedModel((request: ModelRequest) => {
    if (request.continueFrom !== undefined) return answer.slice(request.continueFrom.length);
    const last = request.messages[request.messages.length - 1];
    if (last?.role === 'user' && last.ephemeral && last.content.includes('Paths you may set')) return '{"lines[37].price": 13.25}';
    return { text: answer.slice(0, cut), finishReason: 'length' };
  });
  return { provider, model: 'claude-sonnet-4-6' };
}

/** Extracts the order and logs each model call: what it was and how its output was used. */
export async function runPatchAndContinue(target: ModelTarget = offlineTarget(), log: (line: string) => void = console.log): Promise<Order> {
  const agent = Agent.create({ ...target, maxTokens: 1200 })
    .system('Extract the order from the email as JSON: {"customer": string, "lines": [{"sku": string, "quantity": integer, "price": number}]}, one line per ordered part, in order. Reply with the JSON only.')
    .outputSchema(Order, { continuation: { maxContinuations: 3, maxTokens: 2400 } })
    .on('model.request', (event) => log(`call ${event.attempt}: ${event.messageCount} messages`))
    .build();
  const result = await agent.run(EMAIL);
  // This agent has no tool that needs approval: its runs complete (the narrowing types `value`).
  if (result.status !== 'complete') throw new Error('the run suspended');
  for (const attempt of result.attempts) {
    log(`attempt ${attempt.attempt}: ${attempt.errorKind}${attempt.via ? ` via ${attempt.via}` : ''}, ${attempt.usage.outputTokens} output tokens`);
  }
  log(`${result.attempts.length} model calls, ${result.usage.outputTokens} output tokens in all`);
  return result.value as Order;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runPatchAndContinue(providerFromEnv() ?? offlineTarget());
