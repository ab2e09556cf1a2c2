/**
 * A fleet worker process for the benchmark: a BullMQ worker running one agent on a zero-latency
 * model (a tool call, then the final answer), `concurrency` jobs at a time. Prints `ready`.
 * Arguments: port queue concurrency
 */
import { Agent, type AgentBuilder, tool } from '@keel/core';
import { createAgentWorker } from '@keel/bullmq';
import { Type } from '@sinclair/typebox';
import { finalTurn, toolTurn, zeroLatencyModel } from '../zero-latency-model';

const [port, queue, concurrency] = process.argv.slice(2);
const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Looks an order up',
  input: Type.Object({ orderId: Type.String() }),
  execute: async ({ orderId }) => ({ orderId, status: 'delivered' }),
});
const agent = Agent.create({ provider: zeroLatencyModel(toolTurn, finalTurn), model: 'zero-latency' })
  .tool(lookupOrder)
  .outputSchema(Type.Object({ action: Type.String(), amount: Type.Number() }));
const { worker } = createAgentWorker({
  connection: { host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: null },
  queue: String(queue),
  agents: { refunds: agent as AgentBuilder<unknown> },
  concurrency: Number(concurrency),
});
await worker.waitUntilReady();
process.stdout.write(`${JSON.stringify({ event: 'ready' })}\n`);
