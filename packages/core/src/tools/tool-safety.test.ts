import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, AgentConfigurationError, tool } from '../index';
import { type ToolMessage } from '@keel/provider';
import { scriptedModel } from '../testing/index';

const Empty = Type.Object({});

function runWith(execute: (input: unknown, context: { signal: AbortSignal }) => unknown, options: { timeoutMs?: number; agentTimeoutMs?: number } = {}) {
  const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'probe', arguments: {} }] }, 'done']);
  const probe = tool({ name: 'probe', description: 'probe', input: Empty, execute, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) });
  const agent = Agent.create({ provider: model, model: 'm', ...(options.agentTimeoutMs === undefined ? {} : { toolTimeoutMs: options.agentTimeoutMs }) }).tool(probe).build();
  return { model, agent };
}

const toolMessage = (model: ReturnType<typeof scriptedModel>) => model.requests[1]?.messages.find((message): message is ToolMessage => message.role === 'tool');

describe('tool results are JSON data', () => {
  it('answers a function result with tool-result-invalid and never sends its source', async () => {
    const { model, agent } = runWith(() => function leak() { return 'SOURCE_OF_THE_FUNCTION'; });
    const result = await agent.run('go');
    expect(result.text).toBe('done');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-result-invalid' });
    const sent = toolMessage(model)?.content[0];
    expect(sent).toMatchObject({ isError: true });
    expect(sent?.output).toContain('a function at the top level');
    expect(JSON.stringify(model.requests)).not.toContain('SOURCE_OF_THE_FUNCTION');
  });

  it('answers BigInt and cyclic results with tool-result-invalid', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.loop = cyclic;
    for (const value of [{ n: 1n }, cyclic]) {
      const { agent } = runWith(() => value);
      const result = await agent.run('go');
      expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-result-invalid' });
      expect(result.toolCalls[0]?.output).not.toContain('[object Object]');
    }
  });

  it('cuts a large result to maxToolResultBytes with the marker', async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'probe', arguments: {} }] }, 'done']);
    const probe = tool({ name: 'probe', description: 'probe', input: Empty, execute: () => 'x'.repeat(10_000) });
    const result = await Agent.create({ provider: model, model: 'm', maxToolResultBytes: 1000 }).tool(probe).build().run('go');
    expect(result.toolCalls[0]?.isError).toBe(false);
    expect(result.toolCalls[0]?.output.length).toBeLessThanOrEqual(1000);
    expect(result.toolCalls[0]?.output).toContain('truncated');
  });
});

describe('tool timeouts', () => {
  it('ends a hanging tool with tool-timeout, aborts its signal, and the run goes on', async () => {
    let seen: AbortSignal | undefined;
    const { agent } = runWith((_input, context) => {
      seen = context.signal;
      return new Promise(() => undefined);
    }, { timeoutMs: 20 });
    const result = await agent.run('go');
    expect(result.text).toBe('done');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-timeout' });
    expect(result.toolCalls[0]?.output).toContain('did not finish within 20 ms');
    expect(seen?.aborted).toBe(true);
  });

  it('applies the agent-wide toolTimeoutMs; a tool setting wins', async () => {
    const hang = () => new Promise(() => undefined);
    const agentWide = await runWith(hang, { agentTimeoutMs: 15 }).agent.run('go');
    expect(agentWide.toolCalls[0]?.errorCode).toBe('tool-timeout');
    const slow = () => new Promise((resolve) => setTimeout(resolve, 40, 'late'));
    const toolWins = await runWith(slow, { agentTimeoutMs: 5, timeoutMs: 2000 }).agent.run('go');
    expect(toolWins.toolCalls[0]).toMatchObject({ isError: false, output: 'late' });
  });
});

describe('tool configuration mistakes', () => {
  it('needs execute', () => {
    expect(() => tool({ name: 'x', description: 'd', input: Empty } as never)).toThrow(AgentConfigurationError);
    expect(() => tool({ name: 'x', description: 'd', input: Empty } as never)).toThrow('Invalid agent configuration (tool:x): a tool needs an execute function');
  });

  it('names the tool when its input schema is not a schema', () => {
    const attempt = () => tool({ name: 'lookup', description: 'd', input: { n: z.number() } as never, execute: () => 1 });
    expect(attempt).toThrow(AgentConfigurationError);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ setting: 'tool:lookup.input' });
      expect((error as Error).message).toMatch(/unknown keyword/);
    }
  });

  it('refuses a non-finite timeout, and a non-tool at build()', () => {
    expect(() => tool({ name: 'x', description: 'd', input: Empty, execute: () => 1, timeoutMs: Infinity })).toThrow(/timeoutMs/);
    const model = scriptedModel(['x']);
    expect(() => Agent.create({ provider: model, model: 'm' }).tool({ name: 'fake' } as never).build()).toThrow(/tools\[0\].*is not a tool/);
  });
});
