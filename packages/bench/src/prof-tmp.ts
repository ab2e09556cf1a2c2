import { Type } from '@sinclair/typebox';
import { Agent, tool } from '@keel/core';
import { runGate } from '@keel/reliability';
import { finalTurn, toolTurn, zeroLatencyModel } from './zero-latency-model';
import { RefundSchema } from './overhead';
const time = async (name: string, fn: () => Promise<unknown>) => {
  for (let i = 0; i < 3000; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < 20000; i++) await fn();
  console.log(name, (((performance.now() - t) * 1000) / 20000).toFixed(1), 'us');
};
const plain = Agent.create({ provider: zeroLatencyModel(finalTurn, finalTurn), model: 'm' }).build();
const schema = Agent.create({ provider: zeroLatencyModel(finalTurn, finalTurn), model: 'm' }).outputSchema(RefundSchema).build();
const tooled = Agent.create({ provider: zeroLatencyModel(toolTurn, finalTurn), model: 'm' }).tool(tool({ name: 'lookup_order', description: 'x', input: Type.Object({ orderId: Type.String() }), execute: async () => 'ok' })).build();
const m = zeroLatencyModel(finalTurn, finalTurn);
await time('gate only', () => runGate({ call: () => m.generate({ model: 'm', messages: [] }) }));
await time('plain 1 call', () => plain.run('x'));
await time('schema 1 call', () => schema.run('x'));
await time('tool 2 calls', () => tooled.run('x'));
