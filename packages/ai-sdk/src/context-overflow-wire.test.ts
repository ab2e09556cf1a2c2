import { createAnthropic } from '@ai-sdk/anthropic';
import { Agent, type AgentEvents, ContextOverflowError, tool } from '@keel/core';
import { errorReply, jsonReply, respondReply, startWireServer, type WireServer } from '@keel/wire-server';
import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { fromAISDK } from './from-ai-sdk';
import { anthropicError, anthropicText, anthropicToolUse } from './testing/anthropic-fixtures';

/**
 * Claude through `@ai-sdk/anthropic` against a local Messages API server that refuses a request
 * as too long ("prompt is too long"): one compaction and one retry of the same step recover it;
 * a second refusal fails with ContextOverflowError.
 */

const API_KEY = 'sk-ant-test-0123456789';
const MODEL = 'claude-sonnet-4-5';
const PAGES = 4;
const servers: WireServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type Body = { messages: { content: { type: string }[] }[] };
const resultsIn = (body: unknown) => (body as Body).messages.flatMap((message) => message.content).filter((block) => block.type === 'tool_result').length;

const readPage = tool({ name: 'read_page', description: 'Read a page of the archive', input: Type.Object({ page: Type.Integer() }), execute: ({ page }) => `page ${page}: `.padEnd(6000, 'log line ') });

async function agentOn(refuses: (body: unknown) => boolean) {
  const reply = respondReply((request) => {
    if (refuses(request.body)) return errorReply(400, anthropicError('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'));
    const read = resultsIn(request.body);
    return jsonReply(read >= PAGES ? anthropicText(`Read ${read} pages.`) : anthropicToolUse('read_page', { page: read + 1 }, `toolu_0${read + 1}`));
  });
  const wire = await startWireServer(...Array.from({ length: 8 }, () => reply));
  servers.push(wire);
  const compactions: AgentEvents['context.compacted'][] = [];
  const provider = fromAISDK(createAnthropic({ baseURL: wire.url, apiKey: API_KEY })(MODEL), { secrets: [API_KEY] });
  const agent = Agent.create({ provider, model: MODEL }).tool(readPage).context({ keepRecent: 1 }).on('context.compacted', (event) => void compactions.push(event)).build();
  return { wire, agent, compactions };
}

describe('Claude via @ai-sdk/anthropic: a context-length refusal', () => {
  it('is recovered by one compaction and one retry of the same step', async () => {
    const { wire, agent, compactions } = await agentOn((body) => JSON.stringify(body).length > 15_000);

    const result = await agent.run('Read the archive.');

    expect(result.text).toBe('Read 4 pages.');
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['ok', 'ok', 'ok', 'context-overflow', 'ok', 'ok']);
    expect(compactions).toMatchObject([{ reason: 'overflow', tier: 'clear-results', step: 4 }]);
    expect(result.steps).toHaveLength(5);
    expect(wire.requests).toHaveLength(6);
    expect(JSON.stringify(wire.requests[4]?.body)).toMatch(/\[results? cleared to save context: (\d+ calls of )?read_page/);
  });

  it('a second refusal fails with ContextOverflowError', async () => {
    const { wire, agent } = await agentOn((body) => resultsIn(body) >= 2);
    const error = await agent.run('Read the archive.').catch((thrown: unknown) => thrown);
    expect(ContextOverflowError.isInstance(error) && [error.errorKind, error.compactions, error.estimatedTokens > 1000]).toEqual(['context-overflow', 1, true]);
    expect(wire.requests).toHaveLength(4);
  });
});
