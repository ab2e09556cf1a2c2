/** The refund schema, answers and agent the strict-output tests share. */
import { Type } from '@sinclair/typebox';
import { Agent, type Message } from '../index';
import { type Script, scriptedModel } from '../testing/index';

/** The output schema the refund agent answers to. */
export const Refund = Type.Object({
  action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]),
  amount: Type.Number(),
});

/** The value a valid refund answer parses to. */
export interface RefundValue {
  action: 'refund' | 'reject';
  amount: number;
}

/** A valid answer, answers that fail the schema in two ways, one that is not JSON, and the feedback line for the bad amount. */
export const VALID = '{"action":"refund","amount":50}';
export const BAD_AMOUNT = '{"action":"refund","amount":"USD 50"}';
export const BAD_ACTION = '{"action":"maybe","amount":50}';
export const NOT_JSON = 'I think we should refund fifty dollars.';
export const AMOUNT_LINE = `- 'amount': expected number, got string "USD 50"`;

/** A scripted model playing `script`, and an agent builder with the refund output schema on it. */
export function refundAgent(script: Script, options: Parameters<ReturnType<typeof Agent.create>['outputSchema']>[1] = {}) {
  const model = scriptedModel(script);
  const builder = Agent.create({ provider: model, model: 'm' }).outputSchema(Refund, options);
  return { model, builder };
}

/** The request the model was sent at `index`; throws when there is none. */
export const requestOf = (model: { readonly requests: readonly { readonly messages: readonly Message[] }[] }, index: number) => {
  const request = model.requests[index];
  if (!request) throw new Error(`no request #${index}`);
  return request;
};

/** What a run of the built agent on the refund question throws (or, should it not throw, returns). */
export const runError = (builder: ReturnType<typeof refundAgent>['builder']): Promise<unknown> =>
  builder
    .build()
    .run('Refund order 42')
    .catch((caught: unknown) => caught);
