import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, tool } from '../index';
import type { AgentEventName, AgentEvents, ModelRequest } from '../index';
import { type ScriptedReply, scriptedModel } from '../testing/index';

const RUNS = 50;

/** The `n` of the run a request belongs to, read from its first user message. */
function runNumber(request: ModelRequest): number {
  const first = request.messages[0];
  const match = first?.role === 'user' ? /^n=(\d+)$/.exec(first.content) : null;
  if (!match) throw new Error(`unexpected first message: ${JSON.stringify(first)}`);
  return Number(match[1]);
}

/**
 * Step 1: call `echo` with the run's n. Step 2: answer with what the tool returned.
 * Usage depends on n, and small delays interleave the runs.
 */
function script(request: ModelRequest): ScriptedReply {
  const n = runNumber(request);
  const toolMessage = request.messages.find((message) => message.role === 'tool');
  const usage = { inputTokens: n, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
  if (!toolMessage) return { toolCalls: [{ id: `echo-${n}`, name: 'echo', arguments: { n } }], usage, delayMs: n % 4 };
  const output = toolMessage.role === 'tool' ? toolMessage.content[0]?.output : undefined;
  return { text: `answer for n=${n}, tool said ${output}`, usage, delayMs: (n * 7) % 3 };
}

describe('concurrent runs on one agent', () => {
  it('keep their runIds, messages, usage, attempts and events apart', async () => {
    const events: { name: AgentEventName; payload: AgentEvents[AgentEventName] }[] = [];
    const echo = tool({
      name: 'echo',
      description: 'echoes n',
      input: Type.Object({ n: Type.Integer() }),
      execute: async (input) => {
        await new Promise((resolve) => setTimeout(resolve, input.n % 3));
        return `echo ${input.n}`;
      },
    });
    const model = scriptedModel(script);
    const names: AgentEventName[] = ['run.start', 'run.end', 'step.start', 'model.request', 'tool.start', 'tool.end'];
    const agent = names
      .reduce((builder, name) => builder.on(name, (payload) => void events.push({ name, payload })), Agent.create({ provider: model, model: 'm' }).tool(echo))
      .build();

    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    const results = await Promise.all(Array.from({ length: RUNS }, (_, n) => agent.run(`n=${n}`))).finally(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      process.off('warning', onWarning);
    });

    // Runs without a signal share no abort signal, so many of them cause no listener-leak warning.
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');

    expect(model.calls).toBe(RUNS * 2);
    expect(new Set(results.map((result) => result.runId)).size).toBe(RUNS);

    results.forEach((result, n) => {
      expect(result.text).toBe(`answer for n=${n}, tool said echo ${n}`);
      expect(result.messages).toEqual([
        { role: 'user', content: `n=${n}` },
        { role: 'assistant', content: [{ type: 'tool-call', id: `echo-${n}`, name: 'echo', arguments: { n } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: `echo-${n}`, toolName: 'echo', output: `echo ${n}`, isError: false }] },
        { role: 'assistant', content: [{ type: 'text', text: `answer for n=${n}, tool said echo ${n}` }] },
      ]);
      expect(result.toolCalls.map((record) => record.toolCallId)).toEqual([`echo-${n}`]);
      expect(result.usage).toMatchObject({ inputTokens: 2 * n, outputTokens: 2, modelCalls: 2 });
      expect(result.attempts).toHaveLength(2);
      expect(result.attempts.map((attempt) => attempt.usage.inputTokens)).toEqual([n, n]);
      expect(result.attempts[1]?.rawOutput).toBe(result.text);
      expect(result.steps).toHaveLength(2);
    });

    const byRun = new Map<string, typeof events>();
    for (const event of events) byRun.set(event.payload.runId, [...(byRun.get(event.payload.runId) ?? []), event]);
    expect(new Set(byRun.keys())).toEqual(new Set(results.map((result) => result.runId)));
    expect(events.filter((event) => event.name === 'run.start')).toHaveLength(RUNS);
    results.forEach((result, n) => {
      const own = byRun.get(result.runId) ?? [];
      expect(own.map((event) => event.name)).toEqual([
        'run.start',
        'step.start',
        'model.request',
        'tool.start',
        'tool.end',
        'step.start',
        'model.request',
        'run.end',
      ]);
      const toolStart = own.find((event) => event.name === 'tool.start')?.payload as AgentEvents['tool.start'];
      expect(toolStart.toolCallId).toBe(`echo-${n}`);
      const runEnd = own.at(-1)?.payload as AgentEvents['run.end'];
      expect(runEnd).toMatchObject({ status: 'complete', inputTokens: 2 * n, modelCalls: 2, steps: 2 });
    });
  });
});
