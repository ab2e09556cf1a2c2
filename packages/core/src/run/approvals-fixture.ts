/** The refund tool, the suspended run and the helpers the tool-approval tests share. */
import { Type } from '@sinclair/typebox';
import { Agent, tool } from '../index';
import type { InMemoryStore, ModelRequest, ToolContext } from '../index';
import type { ToolMessage } from '@keel/provider';
import { recorder } from '../testing/event-recorder';
import { scriptedModel, asSuspended } from '../testing/index';

/** A state key of the minimum length (32 bytes). */
export const KEY = 'k'.repeat(32);

/** The tool results the model was sent in a request. */
export function toolResults(request: ModelRequest | undefined): ToolMessage['content'] {
  return (request?.messages ?? []).filter((message): message is ToolMessage => message.role === 'tool').flatMap((message) => message.content);
}

/** A refund tool that needs approval, and the refunds it made. */
export function refunds(needsApproval: boolean | ((input: { orderId: string; amount: number }, context: ToolContext) => boolean | Promise<boolean>) = true) {
  const made: { orderId: string; amount: number }[] = [];
  const refund = tool({
    name: 'refund',
    description: 'refunds an order',
    input: Type.Object({ orderId: Type.String(), amount: Type.Number() }),
    needsApproval,
    execute: ({ orderId, amount }) => {
      made.push({ orderId, amount });
      return `refunded ${amount} on ${orderId}`;
    },
  });
  return { refund, made };
}

/** A model tool call of the refund tool. */
export const refundCall = (id: string, amount: number, orderId = 'A-1') => ({ id, name: 'refund', arguments: { orderId, amount } });

/** A suspended run of an agent with a refund tool, and what it needs to resume. */
export async function suspended(options: { stateKey?: string; memory?: InMemoryStore; script?: Parameters<typeof scriptedModel>[0] } = {}) {
  const { refund, made } = refunds();
  const model = scriptedModel(options.script ?? [{ toolCalls: [refundCall('c1', 40)] }, 'Done: refunded 40.']);
  const events = recorder('run.start', 'run.end', 'run.suspended', 'run.resumed', 'tool.start', 'tool.end');
  let builder = events.attach(Agent.create({ provider: model, model: 'm', ...(options.stateKey === undefined ? {} : { stateKey: options.stateKey }) }).tool(refund));
  if (options.memory) builder = builder.memory(options.memory);
  const agent = builder.build();
  const result = asSuspended(await agent.run('Refund 40 on A-1', options.memory ? { conversationId: 'c' } : {}));
  return { agent, model, made, result, events, refund };
}

/** The state as a client hands it back: plain JSON. */
export const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
