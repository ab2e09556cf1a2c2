import { Agent } from '@keel/core';
import { asComplete, retryScenario, scriptedModel } from '@keel/core/test';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { inMemoryTracing } from './testing/in-memory-tracing';
import { telemetry } from './telemetry';

// Every span these runs make (content included) follows the attribute conventions.
const { exporter, provider, tracer } = inMemoryTracing({ checkNaming: true });

/** A run with a tool call whose arguments are re-asked once, a 429, then a feedback retry. */
const scenario = () => retryScenario({ model: 'scripted-1', firstCallUsage: { inputTokens: 20, outputTokens: 8, cacheReadTokens: 12 } }).builder.system('You decide refunds.');

const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan) => spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
const eventNames = (span: ReadableSpan) => span.events.map((event) => event.name);

describe('telemetry()', () => {
  it('traces a run as invoke_agent with chat and execute_tool children, retries and validation as events', async () => {
    const result = asComplete(await scenario().use(telemetry({ tracer, agentName: 'refunds' })).build().run('Refund order 1182?'));
    expect(result.value).toEqual({ action: 'refund', amount: 50 });

    const spans = exporter.getFinishedSpans();
    const roots = spans.filter((span) => span.parentSpanContext === undefined);
    expect(roots.map((span) => span.name)).toEqual(['invoke_agent refunds']);
    const run = roots[0]!;
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'refunds',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted-1',
      'keel.run.id': result.runId,
      'keel.run.status': 'complete',
      'keel.run.model_calls': 5,
      'gen_ai.usage.input_tokens': result.usage.inputTokens,
      'gen_ai.usage.output_tokens': result.usage.outputTokens,
    });
    expect(run.status.code).not.toBe(SpanStatusCode.ERROR);

    const children = childrenOf(spans, run).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    const describe = (span: ReadableSpan) => [span.name, span.attributes['keel.attempt'], span.attributes['keel.request.reason']];
    expect(children.map(describe)).toEqual([
      ['chat scripted-1', 1, 'step'],
      ['execute_tool lookup_order', undefined, undefined],
      ['chat scripted-1', 1, 'step'],
      ['chat scripted-1', 2, 'transient-retry'],
      ['chat scripted-1', 3, 'feedback-retry'],
    ]);
    const [first, toolSpan, limited, rejected, accepted] = children as [ReadableSpan, ReadableSpan, ReadableSpan, ReadableSpan, ReadableSpan];
    // The re-ask for the tool's arguments is a model call inside the tool call's span.
    const reAsks = childrenOf(spans, toolSpan);
    expect(reAsks.map(describe)).toEqual([['chat scripted-1', 1, 'tool-re-ask']]);
    expect(spans).toHaveLength(7);

    expect(first.kind).toBe(SpanKind.CLIENT);
    expect(first.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'scripted-1',
      'gen_ai.response.finish_reasons': ['tool-calls'],
      'gen_ai.usage.input_tokens': 20,
      'gen_ai.usage.output_tokens': 8,
      'gen_ai.usage.cache_read.input_tokens': 12,
      'gen_ai.usage.cache_creation.input_tokens': 0,
    });
    expect(eventNames(first)).toEqual([]);
    expect(eventNames(toolSpan)).toEqual(['keel.tool.re_ask', 'keel.tool.validation']);
    expect(toolSpan.events[0]?.attributes).toMatchObject({ 'gen_ai.tool.name': 'lookup_order', 'keel.tool.re_ask.number': 1 });
    expect(toolSpan.events[1]?.attributes).toMatchObject({ 'keel.tool.validation.outcome': 'corrected', 'keel.tool.validation.retries': 1 });

    expect(toolSpan.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order', 'gen_ai.tool.call.id': 'call-1', 'gen_ai.tool.type': 'function' });
    expect(toolSpan.status.code).not.toBe(SpanStatusCode.ERROR);

    expect(limited.status.code).toBe(SpanStatusCode.ERROR);
    expect(limited.attributes).toMatchObject({ 'error.type': 'rate-limit', 'keel.retry_after_ms': 5 });
    expect(eventNames(run)).toEqual([]);

    expect(eventNames(rejected)).toEqual(['keel.validation.failed', 'keel.retry']);
    expect(rejected.attributes['error.type']).toBe('schema-fail');
    expect(rejected.events[0]?.attributes).toMatchObject({ 'keel.validation.failed.stage': 'schema-validate', 'keel.validation.failed.issues': 1 });
    // The path is a key the model wrote: content, recorded only with recordContent.
    expect(rejected.events[0]?.attributes).not.toHaveProperty('keel.validation.failed.path');
    expect(rejected.events[1]?.attributes).toMatchObject({ 'keel.retry.rule': 'schema-retry', 'keel.retry.error_kind': 'schema-fail', 'keel.retry.decision': 'retry' });
    expect(eventNames(accepted)).toEqual(['keel.recovered']);
    expect(accepted.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);

    // The rate-limit retry is an event of the failed call too.
    expect(limited.events.map((event) => event.attributes?.['keel.retry.error_kind'])).toEqual(['rate-limit']);
    // Every span belongs to one trace.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });
});

describe('telemetry()', () => {
  it('records no content unless asked, and prompts, outputs and feedback when asked', async () => {
    await scenario().use(telemetry({ tracer })).build().run('Refund order 1182?');
    const quiet = exporter.getFinishedSpans();
    const text = JSON.stringify(quiet.map((span) => [span.attributes, span.events]));
    expect(text).not.toContain('USD 50');
    expect(text).not.toContain('Refund order 1182?');
    expect(text).not.toContain('gen_ai.input.messages');
    exporter.reset();

    await scenario().use(telemetry({ tracer, recordContent: true })).build().run('Refund order 1182?');
    const chats = exporter.getFinishedSpans().filter((span) => span.name.startsWith('chat '));
    expect(chats[0]?.attributes['gen_ai.system_instructions']).toBe('You decide refunds.');
    expect(JSON.parse(String(chats[0]?.attributes['gen_ai.input.messages']))).toEqual([{ role: 'user', content: 'Refund order 1182?' }]);
    expect(chats.some((span) => String(span.attributes['gen_ai.output.messages']).includes('USD 50'))).toBe(true);
    const rejectedChat = chats.find((span) => span.events.some((event) => event.name === 'keel.validation.failed'));
    expect(rejectedChat?.events.find((event) => event.name === 'keel.retry')?.attributes?.['keel.retry.feedback']).toContain("'amount': expected number");
  });

  it('keeps a parser message, which can quote the output, as content', async () => {
    const agent = (recordContent: boolean) =>
      Agent.create({ provider: scriptedModel(['the secret plan', '{ "ok": true }']), model: 'm' })
        // Without local repair the parser's own message is the failure's: it quotes the reply.
        .outputSchema(Type.Object({ ok: Type.Boolean() }), { repair: false })
        .use(telemetry({ tracer, recordContent }));
    const failedValidation = () =>
      exporter
        .getFinishedSpans()
        .flatMap((span) => span.events)
        .find((event) => event.name === 'keel.validation.failed');
    await agent(false).build().run('go');
    expect(failedValidation()?.attributes).toMatchObject({ 'keel.validation.failed.stage': 'json-parse' });
    expect(JSON.stringify(exporter.getFinishedSpans().map((span) => [span.attributes, span.events]))).not.toContain('secret plan');
    exporter.reset();
    await agent(true).build().run('go');
    expect(failedValidation()?.attributes?.['keel.validation.failed.message']).toContain('secret plan');
  });

  it('marks a failed run and its failing call with error.type', async () => {
    const failing = Agent.create({ provider: scriptedModel(Object.assign(new Error('bad key'), { errorKind: 'auth' as const })), model: 'm' }).use(telemetry({ tracer }));
    await expect(failing.build().run('hi')).rejects.toThrow();
    const spans = exporter.getFinishedSpans();
    const run = spans.find((span) => span.name === 'invoke_agent')!;
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes['error.type']).toBeDefined();
    expect(run.attributes['keel.run.status']).toBe('failed');
    const chat = spans.find((span) => span.name === 'chat m')!;
    expect(chat.attributes['error.type']).toBe('auth');
    expect(chat.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(chat.events.map((event) => event.name)).toEqual(['keel.fail_fast']);
  });

  it('uses the global tracer provider when no tracer is given', async () => {
    trace.setGlobalTracerProvider(provider);
    try {
      await Agent.create({ provider: scriptedModel('hello'), model: 'm' }).use(telemetry()).build().run('hi');
    } finally {
      trace.disable();
    }
    expect(exporter.getFinishedSpans().map((span) => span.name).sort()).toEqual(['chat m', 'invoke_agent']);
  });
});
