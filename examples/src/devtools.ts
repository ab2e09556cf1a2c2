import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, type ModelTarget, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { fileTrace, startDevtools } from '@keel/devtools';
import { type Static, Type } from '@sinclair/typebox';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * The trace viewer. A triage agent looks an order up and answers with a validated JSON value;
 * `fileTrace` writes each of its runs to a JSON-lines file (each entry of the run's journal once,
 * as it is written, and the retries and feedback that happened in it), and `startDevtools` serves the
 * page that shows each step's attempts: the feedback sent, the rule that decided, the cost.
 *
 * Run it: `pnpm tsx --conditions=@keel/source src/devtools.ts` (offline, scripted: the model first
 * passes the order id as a number, then answers twice in a wrong shape), or with ANTHROPIC_API_KEY
 * set, against the real API. It prints the viewer's address; Ctrl+C stops it.
 */

export const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number({ minimum: 0 }) });
export type Refund = Static<typeof Refund>;

/** Prices of the offline model, so the viewer shows dollars: $3 in, $15 out per million tokens. */
const PRICING = { 'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 } };

/** The offline model: a tool call with a bad argument, an answer that is not JSON, one in the wrong shape, then a valid one. */
export function offlineTarget(): ModelTarget {
  return {
    provider: scriptedModel([
      { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 1182 } }] },
      { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-1182' } }] },
      'I would refund it.',
      '{"action":"refund","amount":"50 EUR"}',
      '{"action":"refund","amount":50}',
    ]),
    model: 'claude-sonnet-4-6',
  };
}

/** Runs one refund request traced to `file`; returns the run's result. */
export async function recordRefund(file: string, target: ModelTarget = offlineTarget()) {
  const trace = fileTrace(file, { recordContent: true });
  // Priced only for the model the table knows: another live model reports no cost rather than $0.
  const agent = Agent.create({ ...target, ...(Object.hasOwn(PRICING, target.model) ? { pricing: PRICING } : {}), maxTokens: 512 })
    .system('You handle refunds. Look the order up, then answer with JSON only: action (refund or reject) and amount in EUR.')
    .tool(tool({ name: 'lookup_order', description: 'Looks an order up by id (e.g. A-1182)', input: Type.Object({ orderId: Type.String() }), execute: ({ orderId }) => ({ orderId, paid: 50, status: 'damaged' }) }))
    .outputSchema(Refund)
    .use(trace)
    .build();
  const result = await agent.run('Order A-1182 arrived damaged. Refund it.');
  await trace.flush();
  return result;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = join(tmpdir(), 'keel-devtools-example.jsonl');
  const result = await recordRefund(file, providerFromEnv() ?? offlineTarget());
  console.log(`answer: ${result.status === 'complete' ? JSON.stringify(result.value) : result.status} after ${result.usage.modelCalls} model calls; traced to ${file}`);
  const viewer = await startDevtools({ file, port: 0 });
  console.log(`open ${viewer.url} (Ctrl+C to stop)`);
  process.once('SIGINT', () => void viewer.close());
}
