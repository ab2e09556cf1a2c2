import { Agent, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { inMemoryTracing } from './testing/in-memory-tracing';
import { telemetry } from './telemetry';

const { exporter, tracer } = inMemoryTracing({ checkNaming: true });

/** What the model writes in these runs carries this marker, in values and in keys. */
const MARKER = /zq7/i;

/** Every byte a span exports: its name, attributes, status, events and links. */
const exported = (spans: readonly ReadableSpan[]) =>
  JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      links: span.links,
    })),
  );

/** The text around the first marker in `text` (empty when there is none), so a failure shows where it leaked. */
const leakIn = (text: string) => {
  const at = text.search(MARKER);
  return at < 0 ? '' : text.slice(Math.max(0, at - 120), at + 40);
};

const Amount = Type.Object({ amount: Type.Number() }, { additionalProperties: false });

/** Runs that fail, or nearly fail, in every way the gate knows, each on model output carrying the marker. */
const scenarios: Record<string, (recordContent: boolean) => Promise<unknown>> = {
  'parse failure, then fail-fast (the bare word the lenient scanner saw)': (recordContent) =>
    Agent.create({ provider: scriptedModel(['Zq7Secret', 'Zq7Secret', 'Zq7Secret']), model: 'm' })
      .outputSchema(Amount, { maxRetries: 1 })
      .use(telemetry({ tracer, recordContent }))
      .build()
      .run('go'),
  'schema failure with a key the model wrote, then fail-fast (validator messages)': (recordContent) =>
    Agent.create({ provider: scriptedModel(['{ "zq7_ssn": "Zq7-123", "amount": "Zq7" }', '{ "zq7_ssn": "Zq7-123", "amount": "Zq7" }']), model: 'm' })
      .outputSchema(Amount, { maxRetries: 1 })
      .use(telemetry({ tracer, recordContent }))
      .build()
      .run('go'),
  'tool re-ask on arguments with keys and values the model wrote': (recordContent) =>
    Agent.create({
      provider: scriptedModel([
        { toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { id: 'Zq7-order', zq7_extra: 'Zq7' } }] },
        { toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { zq7_still: 'wrong' } }] },
        { toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { id: 7 } }] },
        '{ "amount": 1 }',
      ]),
      model: 'm',
      toolRetries: 2,
    })
      .tool(tool({ name: 'lookup', description: 'Looks up.', input: Type.Object({ id: Type.Integer() }, { additionalProperties: false }), execute: () => 'found' }))
      .outputSchema(Amount)
      .use(telemetry({ tracer, recordContent }))
      .build()
      .run('go'),
  'local repair and coercion of keys the model wrote': (recordContent) =>
    Agent.create({ provider: scriptedModel(['{ zq7_refund: "12", zq7_fee: 3, }']), model: 'm' })
      .outputSchema(Type.Record(Type.String(), Type.Number()))
      .use(telemetry({ tracer, recordContent }))
      .build()
      .run('go'),
  'a call of a tool the model made up': (recordContent) =>
    Agent.create({ provider: scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'zq7_made_up', arguments: { zq7: 1 } }] }, '{ "amount": 1 }']), model: 'm' })
      .tool(tool({ name: 'lookup', description: 'Looks up.', input: Type.Object({}), execute: () => 'found' }))
      .outputSchema(Amount)
      .use(telemetry({ tracer, recordContent }))
      .build()
      .run('go'),
  'a provider error whose message quotes the output': (recordContent) =>
    Agent.create({ provider: scriptedModel([Object.assign(new Error('could not read "Zq7 reply"'), { errorKind: 'auth' as const })]), model: 'm' })
      .use(telemetry({ tracer, recordContent }))
      .build()
      .run('go'),
  'a canned fallback after a failure that quotes the output': (recordContent) =>
    Agent.create({ provider: scriptedModel(['{ "zq7_key": "Zq7" }']), model: 'm' })
      .outputSchema(Amount, { maxRetries: 0 })
      .outputFallback({ canned: { amount: 0 } })
      .use(telemetry({ tracer, recordContent }))
      .build()
      .run('go'),
  'a feedback template, a rule and a listener that throw with the output in their messages': (recordContent) =>
    Agent.create({ provider: scriptedModel(['{ "amount": "Zq7" }', '{ "amount": 1 }']), model: 'm' })
      .outputSchema(Amount, {
        feedbackForLLM: (input) => {
          throw new Error(`cannot phrase ${JSON.stringify(input)}`);
        },
      })
      .reliability({
        postDecide: [
          {
            kind: 'peek',
            then: 'retry',
            when: (scope) => {
              if (scope.validationError) throw new Error(`peeked at ${scope.validationError.rawOutput}`);
              return false;
            },
          },
        ],
      })
      .on('validation.failed', (event) => {
        throw new Error(`listener saw ${event.rawOutput}`);
      })
      .use(telemetry({ tracer, recordContent }))
      .build()
      .run('go'),
};

describe('telemetry() without recordContent holds no byte the model wrote', () => {
  it.each(Object.keys(scenarios))('%s', async (name) => {
    const scenario = scenarios[name] as (recordContent: boolean) => Promise<unknown>;
    await scenario(false).catch(() => undefined);
    const quiet = exporter.getFinishedSpans();
    expect(quiet.length).toBeGreaterThan(0);
    const text = exported(quiet);
    expect(leakIn(text)).toBe('');
    exporter.reset();
    // The same run with recordContent does record the output: the walk above can see it.
    await scenario(true).catch(() => undefined);
    expect(exported(exporter.getFinishedSpans())).toMatch(MARKER);
  });

  it('names the span of a tool that exists, once it is known to exist', async () => {
    await scenarios['tool re-ask on arguments with keys and values the model wrote']?.(false);
    const [toolSpan] = exporter.getFinishedSpans().filter((span) => span.name.startsWith('execute_tool'));
    expect(toolSpan?.name).toBe('execute_tool lookup');
    expect(toolSpan?.attributes['gen_ai.tool.name']).toBe('lookup');
  });

  it('names the failure on the run span by its error and kind', async () => {
    await scenarios['schema failure with a key the model wrote, then fail-fast (validator messages)']?.(false).catch(() => undefined);
    const run = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent');
    expect(run?.status.message).toBe('ReliabilityFailFastError (schema-fail): the run failed');
  });
});
