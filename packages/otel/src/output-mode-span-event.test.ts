import { Agent } from '@keel/core';
import { scriptedModel, asComplete } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { inMemoryTracing } from './testing/in-memory-tracing';
import { telemetry } from './telemetry';

const { exporter, tracer } = inMemoryTracing({ checkNaming: true });

const Answer = Type.Object({ n: Type.Integer({ minimum: 0 }) });
const refused = () => Object.assign(new Error('400 output_config.format.schema: too complex'), { errorKind: 'bad-request' as const, status: 400, schemaRejected: 'output' as const });

describe('telemetry() and output modes', () => {
  it.each([false, true])('records a downgrade as a span event on the run span (recordContent: %s)', async (recordContent) => {
    exporter.reset();
    const model = scriptedModel((request) => (request.responseFormat ? refused() : { toolCalls: [{ name: 'final_answer', arguments: { n: 1 } }] }), { capabilities: { nativeOutput: true } });
    const agent = Agent.create({ provider: model, model: 'm' }).outputSchema(Answer).use(telemetry({ tracer, recordContent })).build();
    const result = asComplete(await agent.run('n?'));
    expect(result.value).toEqual({ n: 1 });
    const run = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent');
    const event = run?.events.find((candidate) => candidate.name === 'keel.output.mode_downgraded');
    expect(event?.attributes).toMatchObject({
      'keel.output.mode_downgraded.from': 'native',
      'keel.output.mode_downgraded.to': 'tool',
      'keel.output.mode_downgraded.strict_tools': false,
      'keel.output.mode_downgraded.reason': 'schema-rejected',
      'keel.step': 1,
    });
    expect(event?.attributes?.['keel.output.mode_downgraded.detail']).toBe(recordContent ? '400 output_config.format.schema: too complex' : undefined);
  });
});
