// Bundled for the browser (no Node built-ins allowed), then run where code generation is
// forbidden: the published core + reliability run a validated agent with a feedback retry.
import { Type } from '@sinclair/typebox';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { formatFeedback, toValidator } from '@keel/reliability';

const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number({ minimum: 0 }) }, { additionalProperties: false });
const model = scriptedModel(['{ "action": "refund", "amount": "USD 50", "note": 1 }', '{ "action": "refund", "amount": 50 }']);
const result = await Agent.create({ provider: model, model: 'scripted' }).outputSchema(Refund).build().run('Refund?');
const check = toValidator(Refund).validate({ action: 'maybe', amount: -1 });
const feedback = check.ok ? '' : formatFeedback({ errorType: 'schema', issues: check.issues });
if (result.value?.amount !== 50 || model.calls !== 2 || !feedback.includes("'action': must be one of")) {
  throw new Error(`browser bundle: unexpected ${JSON.stringify({ value: result.value, calls: model.calls, feedback })}`);
}
console.log('browser bundle: ok');
