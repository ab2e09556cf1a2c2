/**
 * Run by no-code-generation.test.ts in a child process, with and without
 * `--disallow-code-generation-from-strings`: an agent whose TypeBox output and tool arguments fail
 * validation once each, then succeed. Prints what the run did as JSON.
 */
import { Type } from '@sinclair/typebox';
import { Agent } from '../agent/agent';
import { scriptedModel } from '../testing/scripted-model';
import { asComplete } from '../testing/run-status';
import { tool } from '../tools/tool';

let codeGeneration = true;
try {
  new Function('return 1');
} catch {
  codeGeneration = false;
}

const lookup = tool({
  name: 'lookup_order',
  description: 'Look an order up by id.',
  input: Type.Object({ id: Type.Integer({ minimum: 1 }), email: Type.String({ format: 'email' }) }, { additionalProperties: false }),
  execute: async ({ id }) => ({ id, paid: 50 }),
});

const model = scriptedModel([
  { toolCalls: [{ name: 'lookup_order', arguments: { id: '1182', email: 'nope', note: 'x' } }] },
  { toolCalls: [{ name: 'lookup_order', arguments: { id: 1182, email: 'ann@example.com' } }] },
  '{ "action": "refund", "amount": "USD 50" }',
  '{ "action": "refund", "amount": 50 }',
]);

const feedback: string[] = [];
const result = asComplete(await Agent.create({ provider: model, model: 'scripted', maxSteps: 4, toolRetries: 2 })
  .tools([lookup])
  .outputSchema(Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number({ minimum: 0 }) }), { maxRetries: 2 })
  .on('tool.re-ask', (event) => void feedback.push(event.feedback))
  .on('reliability.retry', (event) => void feedback.push(event.feedback ?? ''))
  .build()
  .run('Refund order 1182?'));

globalThis.console.log(JSON.stringify({ codeGeneration, value: result.value, feedback, calls: model.calls }));
