import { Type } from '@sinclair/typebox';
import { Agent } from '../agent/agent';
import type { TokenUsage } from '@keel/reliability';
import { tool } from '../tools/tool';
import { scriptedModel } from './scripted-model';

/** Options of {@link retryScenario}. */
export interface RetryScenarioOptions {
  /** The model id the agent sends; `scripted` unless given. */
  readonly model?: string;
  /** The first call's usage, where a test reads the counts it reports. */
  readonly firstCallUsage?: Partial<TokenUsage>;
}

/**
 * A scripted run that takes every path a trace reports, for testing tracing integrations: a tool
 * call whose arguments are re-asked once, a rate limit (429, retry after 5 ms), then an answer
 * that fails the output schema and its feedback retry. Returns the scripted model and the
 * agent's builder (three steps at most), to add the integration to.
 */
export function retryScenario(options: RetryScenarioOptions = {}) {
  const lookup = tool({
    name: 'lookup_order',
    description: 'Look an order up by id.',
    input: Type.Object({ id: Type.Integer() }, { additionalProperties: false }),
    execute: async ({ id }) => ({ id, paid: 50 }),
  });
  const rateLimited = Object.assign(new Error('429 Too Many Requests'), { errorKind: 'rate-limit' as const, retryAfterMs: 5 });
  const firstCall = { toolCalls: [{ id: 'call-1', name: 'lookup_order', arguments: { id: 'A-1182' } }] };
  const model = scriptedModel([
    options.firstCallUsage === undefined ? firstCall : { ...firstCall, usage: options.firstCallUsage },
    { toolCalls: [{ id: 'call-1', name: 'lookup_order', arguments: { id: 1182 } }] },
    rateLimited,
    '{ "action": "refund", "amount": "USD 50" }',
    '{ "action": "refund", "amount": 50 }',
  ]);
  const builder = Agent.create({ provider: model, model: options.model ?? 'scripted', maxSteps: 3, toolRetries: 2 })
    .tools([lookup])
    .outputSchema(Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() }), { maxRetries: 2 });
  return { model, builder };
}
