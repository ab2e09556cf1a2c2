import { Agent, type ReliabilityRule, tool } from '@keel/core';
import type { ModelResponse } from '@keel/core';
import { scriptedModel, asComplete } from '@keel/core/test';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { inMemoryTracing } from './testing/in-memory-tracing';
import { telemetry } from './telemetry';

// Every span these runs make follows the attribute conventions.
const { exporter, tracer } = inMemoryTracing({ checkNaming: true });


const schema = Type.Object({ n: Type.Number() });
const rateLimited = () => Object.assign(new Error('429 Too Many Requests'), { errorKind: 'rate-limit' as const, retryAfterMs: 1 });
const eventNames = (span: ReadableSpan | undefined) => span?.events.map((event) => event.name);
const eventOf = (span: ReadableSpan | undefined, name: string) => span?.events.find((event) => event.name === name)?.attributes;
const spanNamed = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name);

/** A PreCheck rule that pauses before every retry, as a fleet-wide backoff does. */
const pauseBeforeRetries: ReliabilityRule<ModelResponse> & { then: 'continue' } = { kind: 'quota-pause', then: 'continue', when: (scope) => scope.attempt > 1, backoff: 5 };

describe('telemetry() span events', () => {
  it('records a PreCheck wait on the run span, with the rule, the delay, the step and the attempt it precedes', async () => {
    const agent = Agent.create({ provider: scriptedModel([rateLimited(), 'hello']), model: 'm' })
      .reliability({ preCheck: [pauseBeforeRetries] })
      .use(telemetry({ tracer }))
      .build();
    await agent.run('hi');

    const [run] = spanNamed('invoke_agent');
    expect(eventNames(run)).toEqual(['keel.wait']);
    expect(eventOf(run, 'keel.wait')).toEqual({ 'keel.wait.rule': 'quota-pause', 'keel.wait.delay_ms': 5, 'keel.step': 1, 'keel.attempt': 2 });
    // The wait is not an event of the call that failed before it, nor of the call it delayed.
    const [failed, retried] = spanNamed('chat m');
    expect(eventNames(failed)).toEqual(['keel.retry']);
    expect(retried?.attributes).toMatchObject({ 'keel.attempt': 2, 'keel.request.reason': 'transient-retry' });
    expect(eventNames(retried)).toEqual(['keel.recovered']);
  });

  it('records a wait before a re-ask’s next attempt on the tool call’s span, where the delayed call goes', async () => {
    const add = tool({ name: 'add', description: 'Adds.', input: Type.Object({ a: Type.Number() }), execute: ({ a }) => a + 1 });
    const model = scriptedModel([{ toolCalls: [{ id: 'add-1', name: 'add', arguments: { a: 'one' } }] }, rateLimited(), { toolCalls: [{ id: 'add-1', name: 'add', arguments: { a: 1 } }] }, 'two']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tools([add])
      .reliability({ preCheck: [pauseBeforeRetries] })
      .use(telemetry({ tracer }))
      .build();
    await agent.run('add one');

    const [run] = spanNamed('invoke_agent');
    const [toolSpan] = spanNamed('execute_tool add');
    expect(eventNames(run)).toEqual([]);
    expect(eventNames(toolSpan)).toEqual(['keel.tool.re_ask', 'keel.wait', 'keel.tool.validation']);
    expect(eventOf(toolSpan, 'keel.wait')).toEqual({ 'keel.wait.rule': 'quota-pause', 'keel.wait.delay_ms': 5, 'keel.step': 1, 'keel.attempt': 2 });
    const reAsks = spanNamed('chat m').filter((span) => span.parentSpanContext?.spanId === toolSpan?.spanContext().spanId);
    expect(reAsks.map((span) => [span.attributes['keel.attempt'], eventNames(span)])).toEqual([
      [1, ['keel.retry']],
      [2, ['keel.recovered']],
    ]);
  });

  it('records a rule that throws, and the fail-fast it causes, on the span open at the time', async () => {
    const broken = { ...pauseBeforeRetries, when: () => true, backoff: () => { throw new Error('quota store down'); } };
    const agent = Agent.create({ provider: scriptedModel(['hello']), model: 'm' })
      .reliability({ preCheck: [broken] })
      .use(telemetry({ tracer }))
      .build();
    await expect(agent.run('hi')).rejects.toThrow();

    const [run] = spanNamed('invoke_agent');
    expect(spanNamed('chat m')).toEqual([]);
    expect(run?.status.code).toBe(SpanStatusCode.ERROR);
    expect(eventNames(run)).toEqual(['keel.rule_error', 'keel.fail_fast']);
    // The thrown message is user code's text, which can quote the output: content only.
    expect(eventOf(run, 'keel.rule_error')).toEqual({ 'keel.rule_error.rule': 'quota-pause', 'keel.rule_error.phase': 'pre-check', 'keel.rule_error.part': 'backoff' });
    expect(eventOf(run, 'keel.fail_fast')).toMatchObject({ 'keel.fail_fast.rule': 'rule-error', 'keel.fail_fast.label': 'quota-pause', 'keel.attempt': 1 });
  });
});

describe('telemetry() span events', () => {
  it('records a feedback template that throws on the rejected call', async () => {
    const agent = Agent.create({ provider: scriptedModel(['{ "n": "one" }', '{ "n": 1 }']), model: 'm' })
      .outputSchema(schema, {
        feedbackForLLM: () => {
          throw new Error('template broke');
        },
      })
      .use(telemetry({ tracer }))
      .build();
    expect(asComplete(await agent.run('hi')).value).toEqual({ n: 1 });

    const [rejected] = spanNamed('chat m');
    expect(eventNames(rejected)).toEqual(['keel.validation.failed', 'keel.feedback_error', 'keel.retry']);
    expect(eventOf(rejected, 'keel.feedback_error')).toEqual({ 'keel.feedback_error.source': 'template' });
  });

  it('records an invalid token count on its call, a local repair and a throwing listener on the run', async () => {
    const agent = Agent.create({ provider: scriptedModel([{ text: '{ "n": 1, }', usage: { inputTokens: -1 } }]), model: 'm' })
      .outputSchema(schema)
      .on('step.start', () => {
        throw new Error('metrics down');
      })
      .use(telemetry({ tracer }))
      .build();
    expect(asComplete(await agent.run('hi')).value).toEqual({ n: 1 });

    const [run] = spanNamed('invoke_agent');
    const [call] = spanNamed('chat m');
    expect(eventNames(call)).toEqual(['keel.usage.invalid']);
    expect(eventOf(call, 'keel.usage.invalid')).toEqual({ 'keel.usage.invalid.field': 'inputTokens', 'keel.usage.invalid.received': '-1', 'keel.attempt': 1 });
    expect(eventNames(run)).toEqual(['keel.listener.error', 'keel.output.repaired']);
    expect(eventOf(run, 'keel.listener.error')).toEqual({ 'keel.listener.error.event': 'step.start', 'error.type': 'Error' });
    expect(eventOf(run, 'keel.output.repaired')).toMatchObject({ 'keel.output.repaired.coercions': 0 });
    expect(String(eventOf(run, 'keel.output.repaired')?.['keel.output.repaired.repairs'])).toContain('comma');
  });

  it('records an output fallback on the run span', async () => {
    const agent = Agent.create({ provider: scriptedModel(['no json here']), model: 'm' })
      .outputSchema(schema, { maxRetries: 0 })
      .outputFallback({ canned: { n: 0 } })
      .use(telemetry({ tracer }))
      .build();
    expect(asComplete(await agent.run('hi')).value).toEqual({ n: 0 });

    const [run] = spanNamed('invoke_agent');
    expect(eventOf(run, 'keel.output.fallback_used')).toMatchObject({ 'keel.output.fallback_used.tier': 'canned' });
  });

  it('records the messages of throwing rules, templates and listeners, and the fallback reason, with recordContent', async () => {
    const broken = { ...pauseBeforeRetries, when: () => true, backoff: () => { throw new Error('quota store down'); } };
    await expect(Agent.create({ provider: scriptedModel(['hello']), model: 'm' }).reliability({ preCheck: [broken] }).use(telemetry({ tracer, recordContent: true })).build().run('hi')).rejects.toThrow();
    expect(eventOf(spanNamed('invoke_agent')[0], 'keel.rule_error')).toMatchObject({ 'keel.rule_error.message': 'quota store down' });
    const [run] = spanNamed('invoke_agent');
    expect(run?.status.message).toContain('quota store down');
    exporter.reset();
    const agent = Agent.create({ provider: scriptedModel(['no json here']), model: 'm' })
      .outputSchema(schema, { maxRetries: 0 })
      .outputFallback({ canned: { n: 0 } })
      .on('step.start', () => {
        throw new Error('metrics down');
      })
      .use(telemetry({ tracer, recordContent: true }))
      .build();
    await agent.run('hi');
    const [withFallback] = spanNamed('invoke_agent');
    expect(eventOf(withFallback, 'keel.listener.error')).toMatchObject({ 'keel.listener.error.message': 'metrics down' });
    expect(String(eventOf(withFallback, 'keel.output.fallback_used')?.['keel.output.fallback_used.reason'])).not.toBe('undefined');
  });
});

