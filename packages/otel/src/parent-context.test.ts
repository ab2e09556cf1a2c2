import { Agent, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryTracing } from './testing/in-memory-tracing';
import { telemetry } from './telemetry';

const { exporter, tracer } = inMemoryTracing();
const contextManager = new AsyncLocalStorageContextManager();

// What NodeSDK and NodeTracerProvider register: the active span follows async work.
beforeAll(() => void context.setGlobalContextManager(contextManager.enable()));
afterAll(() => context.disable());

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** One tool turn, then an answer: a run with a chat, an execute_tool and a second chat. */
function agentWithTool() {
  const clock = tool({
    name: 'clock',
    description: 'The time.',
    input: Type.Object({}),
    // A pause, so the run's spans outlive the caller's synchronous code.
    execute: async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return '12:00';
    },
  });
  const model = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'clock', arguments: {} }] }, 'It is noon.']);
  return Agent.create({ provider: model, model: 'm' }).tools([clock]).use(telemetry({ tracer })).build();
}

describe('telemetry() in a caller’s trace', () => {
  it('makes invoke_agent a child of the span active where the run starts, and its calls children of invoke_agent', async () => {
    const agent = agentWithTool();
    const result = await tracer.startActiveSpan('POST /chat', async (request) => {
      try {
        return await agent.run('What time is it?');
      } finally {
        request.end();
      }
    });
    expect(result.text).toBe('It is noon.');

    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'POST /chat')!;
    const run = spans.find((span) => span.name === 'invoke_agent')!;
    expect(parentOf(run)).toBe(request.spanContext().spanId);
    expect(run.spanContext().traceId).toBe(request.spanContext().traceId);

    const inside = spans.filter((span) => span !== request && span !== run);
    expect(inside.map((span) => span.name).sort()).toEqual(['chat m', 'chat m', 'execute_tool clock']);
    for (const span of inside) expect(parentOf(span)).toBe(run.spanContext().spanId);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('keeps concurrent runs under their own callers’ spans', async () => {
    // An agent each: a scripted model's replies are one queue.
    const under = (name: string) => tracer.startActiveSpan(name, (span) => agentWithTool().run('What time is it?').finally(() => span.end()));
    await Promise.all([under('job a'), under('job b')]);

    const spans = exporter.getFinishedSpans();
    const runs = spans.filter((span) => span.name === 'invoke_agent');
    expect(runs).toHaveLength(2);
    for (const job of spans.filter((span) => span.name.startsWith('job '))) {
      const [run, ...others] = runs.filter((span) => parentOf(span) === job.spanContext().spanId);
      expect(others).toEqual([]);
      expect(run?.spanContext().traceId).toBe(job.spanContext().traceId);
      const calls = spans.filter((span) => parentOf(span) === run?.spanContext().spanId);
      expect(calls.map((span) => span.name).sort()).toEqual(['chat m', 'chat m', 'execute_tool clock']);
    }
  });

  it('makes each call’s span current while it runs: spans of the HTTP client and of the tool nest under it', async () => {
    // What instrumented code does: start its span under whatever span is active, after awaits too.
    const work = async (name: string) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      tracer.startSpan(name).end();
    };
    const model = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'fetch_page', arguments: {} }] }, 'done']);
    const provider = { ...model, generate: async (...args: Parameters<typeof model.generate>) => (await work('POST /v1/messages'), model.generate(...args)) };
    delete (provider as { stream?: unknown }).stream;
    const fetchPage = tool({ name: 'fetch_page', description: 'Fetches a page.', input: Type.Object({}), execute: async () => (await work('GET /page'), 'page') });
    await Agent.create({ provider, model: 'm' }).tools([fetchPage]).use(telemetry({ tracer })).build().run('go');

    const spans = exporter.getFinishedSpans();
    const named = (name: string) => spans.filter((span) => span.name === name);
    const [firstChat, secondChat] = named('chat m');
    const [toolSpan] = named('execute_tool fetch_page');
    expect(named('POST /v1/messages').map(parentOf)).toEqual([firstChat?.spanContext().spanId, secondChat?.spanContext().spanId]);
    expect(named('GET /page').map(parentOf)).toEqual([toolSpan?.spanContext().spanId]);
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it('starts a root span when nothing is active', async () => {
    await agentWithTool().run('What time is it?');
    const run = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent')!;
    expect(run.parentSpanContext).toBeUndefined();
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
