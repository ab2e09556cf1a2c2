import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, tool } from '../index';
import type { ModelRequest } from '../index';
import { asSuspended, type ScriptedReply, scriptedModel } from '../testing/index';
import { recorder } from '../testing/event-recorder';

const WINDOW = 32_000;
/** Characters a vendor counting about 4 characters a token takes in a window of {@link WINDOW} tokens. */
const LIMIT_CHARS = WINDOW * 4;
const FETCHES = 14;

const requestChars = (request: ModelRequest) => (request.system?.length ?? 0) + JSON.stringify(request.messages).length;
const refusal = () => Object.assign(new Error('prompt is too long'), { errorKind: 'context-overflow', status: 400, retryable: false });

const fetchPage = tool({
  name: 'fetch',
  description: 'Fetch a page',
  input: Type.Object({ step: Type.Number() }),
  execute: async ({ step }) => `page ${step}: `.padEnd(8000, 'lorem ipsum '),
});
const publish = tool({ name: 'publish', description: 'Publish the report', input: Type.Object({ title: Type.String() }), needsApproval: true, execute: async () => 'published' });

/** Fetches {@link FETCHES} pages, asks to publish (which waits for approval), then answers; refuses any request that does not fit. */
function researcher() {
  return scriptedModel(
    (request, call): ScriptedReply => {
      if (requestChars(request) > LIMIT_CHARS) return refusal();
      const results = request.messages.filter((message) => message.role === 'tool').length;
      if (results < FETCHES) return { toolCalls: [{ name: 'fetch', arguments: { step: call } }] };
      return results === FETCHES ? { toolCalls: [{ name: 'publish', arguments: { title: 'Refunds' } }] } : 'Published the report.';
    },
    { capabilities: { contextWindow: WINDOW } },
  );
}

describe('a compacted run that suspends', () => {
  it('resumes sending what it sent before it suspended: its first request after the approval is compacted, and no request is refused', async () => {
    const model = researcher();
    const events = recorder('context.compacted', 'model.error');
    const agent = events.attach(Agent.create({ provider: model, model: 'm', maxSteps: 30 }).tool(fetchPage).tool(publish)).build();

    const suspended = asSuspended(await agent.run('Research refunds, then publish a report.'));
    expect(events.of('context.compacted').length).toBeGreaterThan(0);
    expect(suspended.state.compaction?.count).toBe(events.of('context.compacted').length);
    const before = model.requests.length;

    const result = await agent.resume(suspended.state, { approve: [suspended.pendingApprovals[0]?.toolCallId ?? ''] });

    expect(result.text).toBe('Published the report.');
    const resumed = model.requests[before] as ModelRequest;
    expect(requestChars(resumed)).toBeLessThanOrEqual(LIMIT_CHARS);
    // Old fetched pages go as markers, as before the suspension; the run keeps every page whole.
    const sentPages = resumed.messages.flatMap((message) => (message.role === 'tool' ? message.content.map((part) => part.output.length) : []));
    expect(sentPages.filter((length) => length < 8000).length).toBeGreaterThan(0);
    expect(result.messages.filter((message) => message.role === 'tool').length).toBe(FETCHES + 1);
    expect(events.of('model.error')).toEqual([]);
  });
});
