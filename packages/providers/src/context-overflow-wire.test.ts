import { Agent, type AgentEvents, ContextOverflowError, tool } from '@keel/core';
import type { ModelProviderV1 } from '@keel/provider';
import { errorReply, jsonReply, respondReply, startWireServer, type WireReply, type WireServer } from '@keel/wire-server';
import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { openai } from './openai/openai-provider';
import { anthropicErrorBody } from './testing/fixtures/anthropic-fixtures';
import { openAIErrorBody } from './testing/fixtures/openai-fixtures';

/**
 * A vendor that refuses a request as too long (its own error, on the wire) is recovered by one
 * compaction and one retry of the same step (or of the tool-argument re-ask it refused), on both
 * adapters; a second refusal fails with ContextOverflowError. The server plays a model that reads
 * four pages, then answers.
 */

interface Vendor {
  readonly model: string;
  readonly make: (url: string) => ModelProviderV1;
  readonly overflow: unknown;
  /** Tool results in a request body. */
  readonly results: (body: unknown) => number;
  readonly toolCall: (id: string, page: unknown) => unknown;
  readonly answer: (text: string) => unknown;
}

type AnthropicBody = { messages: { role: string; content: string | { type: string }[] }[] };
type OpenAIBody = { messages: { role: string }[] };

const vendors: Record<string, Vendor> = {
  anthropic: {
    model: 'claude-sonnet-4-6',
    make: (url) => anthropic({ baseURL: url, apiKey: 'test-key' }),
    overflow: anthropicErrorBody('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'),
    results: (body) => (body as AnthropicBody).messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content)).filter((block) => block.type === 'tool_result').length,
    toolCall: (id, page) => ({
      id: `msg_${id}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', stop_sequence: null, stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'read_page', input: { page } }],
      usage: { input_tokens: 500, output_tokens: 20 },
    }),
    answer: (text) => ({ id: 'msg_answer', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', stop_sequence: null, stop_reason: 'end_turn', content: [{ type: 'text', text }], usage: { input_tokens: 500, output_tokens: 20 } }),
  },
  openai: {
    model: 'gpt-4o-mini',
    make: (url) => openai({ baseURL: `${url}/v1`, apiKey: 'test-key' }),
    overflow: openAIErrorBody('invalid_request_error', "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.", 'context_length_exceeded'),
    results: (body) => (body as OpenAIBody).messages.filter((message) => message.role === 'tool').length,
    toolCall: (id, page) => completion({ tool_calls: [{ id: `call_${id}`, type: 'function', function: { name: 'read_page', arguments: JSON.stringify({ page }) } }] }, 'tool_calls'),
    answer: (text) => completion({ content: text }, 'stop'),
  },
};

function completion(message: Record<string, unknown>, finishReason: string) {
  return {
    id: 'chatcmpl-overflow', object: 'chat.completion', created: 1741569952, model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: null, ...message }, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: 500, completion_tokens: 20, total_tokens: 520 },
  };
}

const PAGES = 4;
const readPage = tool({ name: 'read_page', description: 'Read a page of the archive', input: Type.Object({ page: Type.Integer() }), execute: ({ page }) => `page ${page}: `.padEnd(6000, 'log line ') });

/** The vendor: refuses the bodies `refuses` names; otherwise reads the next page, or answers once it has read them all. */
function vendorReply(vendor: Vendor, refuses: (body: unknown) => boolean): WireReply {
  return respondReply((request) => {
    if (refuses(request.body)) return errorReply(400, vendor.overflow);
    const read = vendor.results(request.body);
    return jsonReply(read >= PAGES ? vendor.answer(`Read ${read} pages.`) : vendor.toolCall(String(read + 1), read + 1));
  });
}

/** Whether a request body forces the tool: a tool-argument re-ask (both vendors name the tool in `tool_choice`). */
const reAsk = (body: unknown) => JSON.stringify((body as { tool_choice?: unknown }).tool_choice ?? null).includes('read_page');

/**
 * The vendor, with the third read's page given as a word (invalid arguments): the re-ask is
 * answered with page 3, unless `refuses` names its body.
 */
function vendorReplyWithInvalidCall(vendor: Vendor, refuses: (body: unknown) => boolean): WireReply {
  return respondReply((request) => {
    if (reAsk(request.body)) return refuses(request.body) ? errorReply(400, vendor.overflow) : jsonReply(vendor.toolCall('3', 3));
    const read = vendor.results(request.body);
    if (read === 2) return jsonReply(vendor.toolCall('3', 'three'));
    return jsonReply(read >= PAGES ? vendor.answer(`Read ${read} pages.`) : vendor.toolCall(String(read + 1), read + 1));
  });
}

const servers: WireServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe.each(Object.entries(vendors))('%s: a context-length refusal on the wire', (_name, vendor) => {
  const agentOn = async (refuses: (body: unknown) => boolean, reply = vendorReply) => {
    const wire = await startWireServer(...Array.from({ length: 8 }, () => reply(vendor, refuses)));
    servers.push(wire);
    const compactions: AgentEvents['context.compacted'][] = [];
    const errors: AgentEvents['model.error'][] = [];
    const agent = Agent.create({ provider: vendor.make(wire.url), model: vendor.model })
      .tool(readPage)
      .context({ keepRecent: 1 })
      .on('context.compacted', (event) => void compactions.push(event))
      .on('model.error', (event) => void errors.push(event))
      .build();
    return { wire, agent, compactions, errors };
  };

  it('is recovered by one compaction and one retry of the same step', async () => {
    // Three pages (about 18,000 characters) no longer fit; the model's own window is far larger.
    const { wire, agent, compactions, errors } = await agentOn((body) => JSON.stringify(body).length > 15_000);

    const result = await agent.run('Read the archive.');

    expect(result.text).toBe('Read 4 pages.');
    expect(errors.map((event) => event.errorKind)).toEqual(['context-overflow']);
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ reason: 'overflow', tier: 'clear-results', step: 4, clearedResults: 2 });
    // Four reads and the answer: five steps, six requests (one refused, then its retry). The window
    // the refusal showed is planned for from then on: no second refusal.
    expect(result.steps).toHaveLength(5);
    expect(wire.requests).toHaveLength(6);
    const retried = JSON.stringify(wire.requests[4]?.body);
    expect(retried.length).toBeLessThan(15_000);
    expect(retried).toMatch(/\[results? cleared to save context: (\d+ calls of )?read_page/);
    // What the run keeps is every page, whole.
    expect(result.messages.filter((message) => message.role === 'tool')).toHaveLength(4);
    expect(JSON.stringify(result.messages)).not.toContain('result cleared');
  });

  it('a second refusal fails with ContextOverflowError: the kind and the token counts', async () => {
    // A vendor that takes no more than one tool result, cleared or not.
    const { wire, agent, compactions } = await agentOn((body) => vendor.results(body) >= 2);

    const error = await agent.run('Read the archive.').catch((thrown: unknown) => thrown);

    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ errorKind: 'context-overflow', compactions: 1, retryable: false });
    expect((error as ContextOverflowError).estimatedTokens).toBeGreaterThan(1000);
    expect(compactions).toHaveLength(1);
    // Two pages read, then the refused step and its refused retry.
    expect(wire.requests).toHaveLength(4);
  });

  it('a refused tool-argument re-ask is recovered by one compaction and one retry of the re-ask', async () => {
    // The re-ask (two pages, about 12,000 characters, and its feedback) no longer fits; the window sits between the step and its re-ask.
    const { wire, agent, compactions, errors } = await agentOn((body) => reAsk(body) && JSON.stringify(body).length > 10_000, vendorReplyWithInvalidCall);

    const result = await agent.run('Read the archive.');

    expect(result.text).toBe('Read 4 pages.');
    expect(errors.map((event) => [event.purpose, event.errorKind])).toEqual([['tool-re-ask', 'context-overflow']]);
    const [compaction, ...later] = compactions;
    expect(compaction).toMatchObject({ reason: 'overflow', tier: 'clear-results', step: 3, clearedResults: 1 });
    // The window the refusal showed is planned for from then on: later steps compact before the vendor would refuse.
    expect(later.map((event) => event.reason)).toEqual(later.map(() => 'threshold'));
    // Three reads (the third's re-ask refused, then retried) and the answer: 5 steps, 7 requests.
    expect(wire.requests.map((request) => reAsk(request.body))).toEqual([false, false, false, true, true, false, false]);
    const retried = JSON.stringify(wire.requests[4]?.body);
    expect(retried.length).toBeLessThan(10_000);
    expect(retried).toMatch(/\[results? cleared to save context: (\d+ calls of )?read_page/);
    expect(result.toolCalls.map((call) => call.arguments)).toEqual([{ page: 1 }, { page: 2 }, { page: 3 }, { page: 4 }]);
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['ok', 'ok', 'ok', 'context-overflow', 'ok', 'ok', 'ok']);
  });

  it('a tool-argument re-ask refused twice fails with ContextOverflowError', async () => {
    const { wire, agent } = await agentOn(reAsk, vendorReplyWithInvalidCall);

    const error = await agent.run('Read the archive.').catch((thrown: unknown) => thrown);

    expect(ContextOverflowError.isInstance(error) && [error.compactions, error.attempts.map((attempt) => attempt.errorKind)]).toEqual([1, ['ok', 'ok', 'ok', 'context-overflow', 'context-overflow']]);
    expect(wire.requests).toHaveLength(5);
  });
});
