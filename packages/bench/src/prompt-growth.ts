import { Agent, type Message, type ModelRequest } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import { RefundSchema } from './overhead';

const NotedRefund = Type.Composite([RefundSchema, Type.Object({ notes: Type.String() })], { additionalProperties: false });

/** Characters a request sends: system, every message's text, tool calls and results. */
export function requestChars(request: Pick<ModelRequest, 'system' | 'messages'>): number {
  let chars = request.system?.length ?? 0;
  for (const message of request.messages) chars += typeof message.content === 'string' ? message.content.length : JSON.stringify(message.content).length;
  return chars;
}

/**
 * Request size on attempts 1, 2 and 3 of one step with 20 kept messages and an 8 KB invalid
 * output: Keel (latest failure only, echo capped) against an accumulate-every-attempt strategy.
 */
export async function measurePromptGrowth(): Promise<{ keel: number[]; accumulate: number[] }> {
  const history: Message[] = [];
  for (let index = 0; index < 10; index++) {
    // About 1 KB per message: a support conversation with order details pasted in.
    history.push({ role: 'user', content: `Question ${index}: ${'order context '.repeat(72)}` });
    history.push({ role: 'assistant', content: [{ type: 'text', text: `Answer ${index}: ${'policy detail '.repeat(72)}` }] });
  }
  // Two different defects, so the stuck-loop rule does not stop the run after attempt 2.
  const bigInvalid = (attempt: number) =>
    JSON.stringify(attempt === 1 ? { action: 'refund', amount: 'USD 50', notes: 'n'.repeat(8 * 1024) } : { action: 'REFUND', amount: 50, notes: 'n'.repeat(8 * 1024) });
  const model = scriptedModel([bigInvalid(1), bigInvalid(2), '{"action":"refund","amount":50,"notes":""}']);
  const agent = Agent.create({ provider: model, model: 'bench' }).system('Decide refunds as JSON.').outputSchema(NotedRefund, { maxAttempts: 3 }).build();
  await agent.run([...history, { role: 'user', content: 'Refund order A-1182?' }]);
  const keel = model.requests.map((request) => requestChars(request));

  // Accumulate: every attempt resends all previous outputs in full with their feedback.
  const first = keel[0] as number;
  const accumulate = [first];
  let extra = 0;
  for (let attempt = 1; attempt < 3; attempt++) {
    extra += bigInvalid(attempt).length + 200;
    accumulate.push(first + extra);
  }
  return { keel, accumulate };
}
