import { Type } from '@sinclair/typebox';
import { Agent } from '../agent/agent';
import { tool } from '../tools/tool';
import { scriptedModel } from './scripted-model';

/**
 * The approval tests' agent: a `refund` tool that needs approval (each refund made is kept in
 * `refunds`), and a scripted model that calls it for order A7 (call id `r1`), then answers.
 */
export function refundDesk() {
  const refunds: string[] = [];
  const refund = tool({
    name: 'refund',
    description: 'refund an order',
    input: Type.Object({ order: Type.String() }),
    needsApproval: true,
    execute: ({ order }) => {
      refunds.push(order);
      return `refunded ${order}`;
    },
  });
  const model = scriptedModel([{ toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 'A7' } }] }, 'Refunded A7.']);
  return { refunds, model, agent: Agent.create({ provider: model, model: 'm' }).tool(refund).build() };
}
