import { Type } from '@sinclair/typebox';
import { Agent } from '../agent/agent';
import { scriptedModel } from '../testing/scripted-model';
import { tool } from '../tools/tool';

/** Test scenario (not exported): a tool re-ask, a rate limit and a feedback retry in one run. */
export function retryScenario() {
  const lookup = tool({
    name: 'lookup_order',
    description: 'Look an order up by id.',
    input: Type.Object({ id: Type.Integer() }, { additionalProperties: false }),
    execute: async ({ id }) => ({ id, paid: 50 }),
  });
  const rateLimited = Object.assign(new Error('429 Too Many Requests'), { errorKind: 'rate-limit' as const, retryAfterMs: 5 });
  const model = scriptedModel([
    { toolCalls: [{ id: 'call-1', name: 'lookup_order', arguments: { id: 'A-1182' } }] },
    { toolCalls: [{ id: 'call-1', name: 'lookup_order', arguments: { id: 1182 } }] },
    rateLimited,
    '{ "action": "refund", "amount": "USD 50" }',
    '{ "action": "refund", "amount": 50 }',
  ]);
  const builder = Agent.create({ provider: model, model: 'scripted', maxSteps: 3, toolRetries: 2 })
    .tools([lookup])
    .outputSchema(Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() }), { maxRetries: 2 });
  return { model, builder };
}
