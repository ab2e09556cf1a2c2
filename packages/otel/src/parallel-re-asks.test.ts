import { Agent, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { inMemoryTracing } from './testing/in-memory-tracing';
import { telemetry } from './telemetry';

const { exporter, tracer } = inMemoryTracing();

const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan | undefined) => spans.filter((span) => span.parentSpanContext?.spanId === parent?.spanContext().spanId);

describe('telemetry() with parallel tool calls', () => {
  it('puts each re-ask under its own tool call, with its own response', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Look an id up.',
      input: Type.Object({ id: Type.Integer() }, { additionalProperties: false }),
      execute: async ({ id }) => ({ id }),
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'call-a', name: 'lookup', arguments: { id: 'one' } }, { id: 'call-b', name: 'lookup', arguments: { id: 'two' } }] },
      { toolCalls: [{ id: 'call-a', name: 'lookup', arguments: { id: 1 } }], usage: { inputTokens: 11, outputTokens: 1 } },
      { toolCalls: [{ id: 'call-b', name: 'lookup', arguments: { id: 2 } }], usage: { inputTokens: 22, outputTokens: 2 } },
      'done',
    ]);
    await Agent.create({ provider: model, model: 'm', toolRetries: 1 }).tools([lookup]).use(telemetry({ tracer })).build().run('Look up one and two.');

    const spans = exporter.getFinishedSpans();
    const tools = spans.filter((span) => span.name === 'execute_tool lookup');
    expect(tools.map((span) => span.attributes['gen_ai.tool.call.id']).sort()).toEqual(['call-a', 'call-b']);
    const reAsks = tools.map((toolSpan) => childrenOf(spans, toolSpan));
    for (const calls of reAsks) {
      expect(calls.map((span) => [span.name, span.attributes['keel.request.reason']])).toEqual([['chat m', 'tool-re-ask']]);
    }
    // Each re-ask got one of the two scripted replies, whole: no reply recorded on another's span.
    const usage = reAsks.map(([call]) => [call?.attributes['gen_ai.usage.input_tokens'], call?.attributes['gen_ai.usage.output_tokens']]);
    expect(usage.sort()).toEqual([[11, 1], [22, 2]]);
    expect(spans.filter((span) => span.name === 'chat m')).toHaveLength(4);
  });
});
