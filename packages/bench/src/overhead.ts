import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { Agent, type Message, tool } from '@keel/core';
import type { ModelProviderV1 } from '@keel/provider';
import { finalTurn, toolTurn, zeroLatencyModel } from './zero-latency-model';

export const RefundSchema = Type.Object(
  { action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() },
  { additionalProperties: false },
);
const LookupInput = Type.Object({ orderId: Type.String() });
const lookup = async ({ orderId }: { orderId: string }) => ({ orderId, paid: 50, status: 'damaged' });

/** The builder of {@link keelAgent}, for variants (listeners, another model that answers the same turns). */
export function keelAgentBuilder(provider: ModelProviderV1 = zeroLatencyModel(toolTurn, finalTurn)) {
  return Agent.create({ provider, model: 'bench' })
    .tool(tool({ name: 'lookup_order', description: 'Look up an order', input: LookupInput, execute: lookup }))
    .outputSchema(RefundSchema);
}

/** The events a typical metrics listener counts (15 of them). */
export const METRIC_EVENTS = [
  'run.start',
  'run.end',
  'step.start',
  'step.end',
  'model.request',
  'model.response',
  'model.error',
  'tool.start',
  'tool.end',
  'tool.validation',
  'tool.re-ask',
  'validation.failed',
  'reliability.retry',
  'reliability.recovered',
  'output.repaired',
] as const;

/** {@link keelAgent} with a metrics listener (a counter per event) on {@link METRIC_EVENTS}: events are part of the product. */
export function metricsAgent(counts = new Map<string, number>()) {
  return METRIC_EVENTS.reduce((next, name) => next.on(name, () => void counts.set(name, (counts.get(name) ?? 0) + 1)), keelAgentBuilder()).build();
}

/** A Keel agent with one tool and a validated final answer, on the zero-latency model. */
export function keelAgent() {
  return keelAgentBuilder().build();
}

/** The same work by hand: call, validate tool args, run the tool, call again, JSON.parse, compiled ajv validate. */
export function bareRun(model: ModelProviderV1 = zeroLatencyModel(toolTurn, finalTurn)) {
  const ajv = new Ajv({ allErrors: true });
  const validateArgs = ajv.compile(LookupInput);
  const validateOutput = ajv.compile(RefundSchema);
  return async (input: string) => {
    const messages: Message[] = [{ role: 'user', content: input }];
    for (;;) {
      const response = await model.generate({ model: 'bench', messages }, {});
      const calls = response.content.filter((part) => part.type === 'tool-call');
      if (calls.length === 0) {
        const value: unknown = JSON.parse(response.text);
        if (!validateOutput(value)) throw new Error('invalid output');
        return value;
      }
      const results = await Promise.all(
        calls.map(async (call) => {
          if (!validateArgs(call.arguments)) throw new Error('invalid arguments');
          return { type: 'tool-result' as const, toolCallId: call.id, toolName: call.name, output: JSON.stringify(await lookup(call.arguments)), isError: false };
        }),
      );
      messages.push({ role: 'assistant', content: response.content }, { role: 'tool', content: results });
    }
  };
}

/** Heap after a warm-up and after 10,000 runs, with GC forced before each reading. */
export async function measureHeap(runs = 10_000): Promise<{ warmMb: number; afterMb: number; growthMb: number; runs: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const agent = keelAgent();
  const heap = () => {
    gc?.();
    gc?.();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  };
  for (let index = 0; index < 1000; index++) await agent.run('warm up');
  const warmMb = heap();
  for (let index = 0; index < runs; index++) await agent.run(`run ${index}`);
  const afterMb = heap();
  return { warmMb, afterMb, growthMb: afterMb - warmMb, runs };
}
