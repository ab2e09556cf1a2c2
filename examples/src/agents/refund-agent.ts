import { Type } from '@sinclair/typebox';
import { Agent, type ModelTarget } from '@keel/core';
import { scriptedModel } from '@keel/core/test';

/** The refund decision every answer must match. */
export const RefundDecision = Type.Object(
  {
    action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]),
    amount: Type.Number({ minimum: 0, description: 'Amount in USD, a number' }),
  },
  { additionalProperties: false },
);

/** The scripted model: first answers `"amount": "USD 50"` (a string), then corrects itself from the feedback. */
export function refundScript() {
  return scriptedModel([
    'Here is my decision:\n```json\n{ "action": "refund", "amount": "USD 50" }\n```',
    '{ "action": "refund", "amount": 50 }',
  ]);
}

/** Builds the refund agent: validated output, feedback retries, a canned fallback. */
export function refundAgent(target: ModelTarget = { provider: refundScript(), model: 'scripted-demo' }) {
  return Agent.create({ ...target, maxSteps: 2 })
    .system('You decide refunds. Reply with JSON only: {"action": "refund" | "reject", "amount": number in USD}.')
    .outputSchema(RefundDecision, { maxRetries: 2 })
    .outputFallback({ canned: { action: 'reject', amount: 0 } });
}
