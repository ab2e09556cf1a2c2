import { Agent, type Message, type ModelRequest } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import { encode } from 'gpt-tokenizer';
import { RefundSchema } from './overhead';

const NotedRefund = Type.Composite([RefundSchema, Type.Object({ notes: Type.String() })], { additionalProperties: false });

/** Tokens a request sends (system and every message's content), counted with a real BPE tokenizer. */
export function requestTokens(request: Pick<ModelRequest, 'system' | 'messages'>): number {
  let text = request.system ?? '';
  for (const message of request.messages) text += `\n${typeof message.content === 'string' ? message.content : JSON.stringify(message.content)}`;
  return encode(text).length;
}

/** Result of {@link measurePromptGrowth}: tokens sent on attempts 1, 2 and 3. */
export interface PromptGrowth {
  readonly keel: readonly number[];
  readonly accumulate: readonly number[];
  readonly keelRatio: number;
  readonly accumulateRatio: number;
}

/**
 * Tokens sent on attempts 1, 2 and 3 of one step with 20 kept messages and an 8 KB invalid
 * output: Keel (latest failure only, echo capped) against a strategy that accumulates every
 * failed attempt and its feedback, built from the same outputs and feedback texts.
 */
export async function measurePromptGrowth(): Promise<PromptGrowth> {
  const history: Message[] = [];
  for (let index = 0; index < 10; index++) {
    // About 1 KB per message: a support conversation with order details pasted in.
    history.push({ role: 'user', content: `Question ${index}: ${'order context '.repeat(72)}` });
    history.push({ role: 'assistant', content: [{ type: 'text', text: `Answer ${index}: ${'policy detail '.repeat(72)}` }] });
  }
  // Two different defects, so the stuck-loop rule does not stop the run after attempt 2.
  const notes = 'The customer reports the parcel arrived crushed; photos attached. '.repeat(125);
  const outputs = [JSON.stringify({ action: 'refund', amount: 'USD 50', notes }), JSON.stringify({ action: 'maybe', amount: 50, notes })];
  const model = scriptedModel([...outputs, JSON.stringify({ action: 'refund', amount: 50, notes: '' })]);
  const agent = Agent.create({ provider: model, model: 'bench' }).system('Decide refunds as JSON.').outputSchema(NotedRefund, { maxRetries: 2 }).build();
  await agent.run([...history, { role: 'user', content: 'Refund order A-1182?' }]);
  const requests = model.requests;
  const keel = requests.map(requestTokens);

  // Accumulate: attempt n resends every earlier failed output in full, each with its feedback.
  const first = requests[0] as ModelRequest;
  const pairs = requests.slice(1).map((request) => request.messages.slice(-2));
  const accumulate = [0, 1, 2].map((attempt) => requestTokens({ ...first, messages: [...first.messages, ...pairs.slice(0, attempt).flat()] }));
  return {
    keel,
    accumulate,
    keelRatio: (keel[2] ?? 0) / (keel[0] ?? 1),
    accumulateRatio: (accumulate[2] ?? 0) / (accumulate[0] ?? 1),
  };
}
