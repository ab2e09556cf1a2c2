import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { tokenBudget } from '@keel/reliability';
import { Agent, ReliabilityFailFastError, tool } from '../index';
import type { ModelRequest } from '../index';
import type { ToolMessage } from '@keel/provider';
import { recorder } from '../testing/event-recorder';
import { scriptedModel } from '../testing/index';

/** The tool results the model was sent in a request. */
function toolResults(request: ModelRequest | undefined): ToolMessage['content'] {
  return (request?.messages ?? []).filter((message): message is ToolMessage => message.role === 'tool').flatMap((message) => message.content);
}

const Verdict = Type.Object({ category: Type.Union([Type.Literal('billing'), Type.Literal('bug')]), urgent: Type.Boolean() });

describe('agent.asTool()', () => {
  it('a sub-agent with an output schema recovers from a bad answer inside the tool call; the parent counts its usage', async () => {
    const subModel = scriptedModel([
      { text: '{"category": "refund", "urgent": true}', usage: { inputTokens: 30, outputTokens: 10 } },
      { text: '{"category": "billing", "urgent": true}', usage: { inputTokens: 50, outputTokens: 10 } },
    ]);
    const triage = Agent.create({ provider: subModel, model: 'sub' }).outputSchema(Verdict).build();
    const parentModel = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'triage', arguments: { message: 'I was charged twice' } }], usage: { inputTokens: 100, outputTokens: 20 } },
      { text: 'Billing, urgent.', usage: { inputTokens: 200, outputTokens: 5 } },
    ]);
    const parent = Agent.create({ provider: parentModel, model: 'parent' })
      .tool(triage.asTool({ name: 'triage', description: 'classifies a ticket' }))
      .build();

    const result = await parent.run('Triage: I was charged twice');

    expect(result.text).toBe('Billing, urgent.');
    expect(subModel.calls).toBe(2);
    expect(subModel.requests[0]?.messages).toEqual([{ role: 'user', content: 'I was charged twice' }]);
    // The validated value is the tool's result; the sub-agent's failed answer never reached the parent.
    expect(toolResults(parentModel.requests[1])).toEqual([{ type: 'tool-result', toolCallId: 't1', toolName: 'triage', output: '{"category":"billing","urgent":true}', isError: false }]);
    expect(result.usage).toMatchObject({ modelCalls: 4, inputTokens: 100 + 30 + 50 + 200, outputTokens: 20 + 10 + 10 + 5 });
    expect(result.attempts.map((attempt) => attempt.status)).toEqual(['valid', 'invalid', 'valid', 'valid']);
    // The parent's first step made its own call and the sub-agent's two.
    expect(result.steps[0]?.modelCalls).toBe(3);
  });

  it("the sub-agent's events carry the parent run id; the parent's do not", async () => {
    const events = recorder('run.start', 'model.response');
    const sub = events.attach(Agent.create({ provider: scriptedModel('sub answer'), model: 'sub' })).build();
    const parentEvents = recorder('run.start');
    const parent = parentEvents
      .attach(Agent.create({ provider: scriptedModel([{ toolCalls: [{ id: 't1', name: 'ask', arguments: { message: 'q' } }] }, 'done']), model: 'p' }))
      .tool(sub.asTool({ name: 'ask', description: 'asks the sub-agent' }))
      .build();

    const result = await parent.run('go', { runId: 'parent-run' });

    expect(result.toolCalls[0]?.output).toBe('sub answer');
    expect(events.of('run.start')).toMatchObject([{ parentRunId: 'parent-run' }]);
    expect(events.of('model.response')).toMatchObject([{ parentRunId: 'parent-run' }]);
    expect(events.of('run.start')[0]?.runId).not.toBe('parent-run');
    expect(parentEvents.of('run.start')[0]).not.toHaveProperty('parentRunId');
    // The fields every event carries come first, in one order, the caller's run after the run's own.
    for (const payload of [...events.of('run.start'), ...events.of('model.response')]) expect(Object.keys(payload).slice(0, 4)).toEqual(['runId', 'parentRunId', 'step', 'timestamp']);
    expect(Object.keys(parentEvents.of('run.start')[0] ?? {}).slice(0, 3)).toEqual(['runId', 'step', 'timestamp']);
  });

  it("a sub-agent's failure is an error result for the parent, not a crash; its spent calls still count", async () => {
    const subModel = scriptedModel(['not json', 'still not json']);
    const sub = Agent.create({ provider: subModel, model: 'sub' }).outputSchema(Verdict, { maxRetries: 1 }).build();
    const parentModel = scriptedModel([{ toolCalls: [{ id: 't1', name: 'triage', arguments: { message: 'x' } }] }, 'I could not classify it.']);
    const parent = Agent.create({ provider: parentModel, model: 'p' }).tool(sub.asTool({ name: 'triage', description: 'classifies' })).build();

    const result = await parent.run('go');

    expect(result.text).toBe('I could not classify it.');
    expect(result.toolCalls).toMatchObject([{ toolCallId: 't1', isError: true, errorCode: 'tool-error' }]);
    expect(result.toolCalls[0]?.output).toMatch(/the agent 'triage' failed: ReliabilityFailFastError/);
    expect(result.usage.modelCalls).toBe(4);
  });

  it("the parent's PreCheck budget sees the sub-agent's usage as it happens", async () => {
    const subModel = scriptedModel({ text: 'a long answer', usage: { inputTokens: 900, outputTokens: 100 } });
    const sub = Agent.create({ provider: subModel, model: 'sub' }).build();
    const parentModel = scriptedModel([{ toolCalls: [{ id: 't1', name: 'research', arguments: { message: 'x' } }], usage: { inputTokens: 10, outputTokens: 10 } }, 'unused']);
    const parent = Agent.create({ provider: parentModel, model: 'p' })
      .tool(sub.asTool({ name: 'research', description: 'researches' }))
      .reliability({ preCheck: [tokenBudget(500)] })
      .build();

    const error = await parent.run('go').catch((caught: unknown) => caught);

    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).kind).toBe('token-budget');
    expect(parentModel.calls).toBe(1);
  });
});

describe('agent.asTool()', () => {
  it("the parent's abort and deadline reach the sub-agent's model call", async () => {
    const subModel = scriptedModel({ text: 'slow', delayMs: 10_000 });
    const sub = Agent.create({ provider: subModel, model: 'sub' }).build();
    const parentModel = scriptedModel({ toolCalls: [{ id: 't1', name: 'slow', arguments: { message: 'x' } }] });
    const parent = Agent.create({ provider: parentModel, model: 'p' }).tool(sub.asTool({ name: 'slow', description: 'slow' })).build();

    const started = performance.now();
    const timedOut = await parent.run('go', { timeoutMs: 50 }).catch((caught: unknown) => caught);
    expect(timedOut).toMatchObject({ name: 'AbortedError', timedOut: true });

    const controller = new AbortController();
    const running = parent.run('go', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(running).rejects.toMatchObject({ name: 'AbortedError' });
    // Neither run waited for the sub-agent's 10 s answer.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(parentModel.calls).toBe(2);
  });

  it("the tool's own timeout stops the sub-agent and is an error result", async () => {
    const sub = Agent.create({ provider: scriptedModel({ text: 'slow', delayMs: 10_000 }), model: 'sub' }).build();
    const parentModel = scriptedModel([{ toolCalls: [{ id: 't1', name: 'slow', arguments: { message: 'x' } }] }, 'gave up']);
    const parent = Agent.create({ provider: parentModel, model: 'p' }).tool(sub.asTool({ name: 'slow', description: 'slow', timeoutMs: 30 })).build();

    const result = await parent.run('go');

    expect(result.text).toBe('gave up');
    expect(result.toolCalls).toMatchObject([{ isError: true, errorCode: 'tool-timeout' }]);
  });

  it('with an input schema, the sub-agent receives the validated value as JSON; bad arguments are re-asked in the parent', async () => {
    const subModel = scriptedModel('translated');
    const sub = Agent.create({ provider: subModel, model: 'sub' }).build();
    const parentModel = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'translate', arguments: { text: 'hola' } }] },
      { toolCalls: [{ id: 't1', name: 'translate', arguments: { text: 'hola', to: 'en' } }] },
      'done',
    ]);
    const parent = Agent.create({ provider: parentModel, model: 'p' })
      .tool(sub.asTool({ name: 'translate', description: 'translates', input: Type.Object({ text: Type.String(), to: Type.String() }) }))
      .build();

    const result = await parent.run('go');

    expect(subModel.requests[0]?.messages).toEqual([{ role: 'user', content: '{"text":"hola","to":"en"}' }]);
    expect(result.toolCalls).toMatchObject([{ output: 'translated', isError: false }]);
    expect(parentModel.calls).toBe(3);
  });

  it('a sub-agent that stops for an approval suspends the calling run: its call waits, nothing it needed approval for runs', async () => {
    const ran: string[] = [];
    const danger = tool({ name: 'wipe', description: 'wipes', input: Type.Object({}), needsApproval: true, execute: () => (ran.push('wipe'), 'wiped') });
    const sub = Agent.create({ provider: scriptedModel([{ toolCalls: [{ id: 'w', name: 'wipe', arguments: {} }] }]), model: 'sub' })
      .tool(danger)
      .build();
    const parent = Agent.create({ provider: scriptedModel([{ toolCalls: [{ id: 't1', name: 'ops', arguments: { message: 'clean up' } }] }, 'ok']), model: 'p' })
      .tool(sub.asTool({ name: 'ops', description: 'ops' }))
      .build();

    const result = await parent.run('go');

    expect(ran).toEqual([]);
    expect(result.status).toBe('suspended');
    expect(result.toolCalls).toEqual([]);
    expect(result.status === 'suspended' && result.pendingApprovals).toMatchObject([{ toolCallId: 't1', toolName: 'ops', nested: { agent: 'ops', pending: [{ toolCallId: 'w', toolName: 'wipe' }] } }]);
  });

  it('refuses a bad tool name at asTool()', () => {
    const sub = Agent.create({ provider: scriptedModel('x'), model: 'sub' }).build();
    expect(() => sub.asTool({ name: 'no spaces', description: 'x' })).toThrow(/tool name/);
  });
});
