import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { tokenBudget } from '@keel/reliability';
import { Agent, AgentConfigurationError, InMemoryStore, ReliabilityFailFastError, RunStateError, RunSuspendedError, tool } from '../index';
import type { Message, ModelRequest, RunResult, ToolContext } from '../index';
import type { ToolMessage } from '../internal';
import { recorder } from '../testing/event-recorder';
import { scriptedModel, asComplete, asSuspended } from '../testing/index';

const KEY = 'k'.repeat(32);

/** The tool results the model was sent in a request. */
function toolResults(request: ModelRequest | undefined): ToolMessage['content'] {
  return (request?.messages ?? []).filter((message): message is ToolMessage => message.role === 'tool').flatMap((message) => message.content);
}

/** A refund tool that needs approval, and the refunds it made. */
function refunds(needsApproval: boolean | ((input: { orderId: string; amount: number }, context: ToolContext) => boolean | Promise<boolean>) = true) {
  const made: { orderId: string; amount: number }[] = [];
  const refund = tool({
    name: 'refund',
    description: 'refunds an order',
    input: Type.Object({ orderId: Type.String(), amount: Type.Number() }),
    needsApproval,
    execute: ({ orderId, amount }) => {
      made.push({ orderId, amount });
      return `refunded ${amount} on ${orderId}`;
    },
  });
  return { refund, made };
}

const refundCall = (id: string, amount: number, orderId = 'A-1') => ({ id, name: 'refund', arguments: { orderId, amount } });

/** A suspended run of an agent with a refund tool, and what it needs to resume. */
async function suspended(options: { stateKey?: string; memory?: InMemoryStore; script?: Parameters<typeof scriptedModel>[0] } = {}) {
  const { refund, made } = refunds();
  const model = scriptedModel(options.script ?? [{ toolCalls: [refundCall('c1', 40)] }, 'Done: refunded 40.']);
  const events = recorder('run.start', 'run.end', 'run.suspended', 'run.resumed', 'tool.start', 'tool.end');
  let builder = events.attach(Agent.create({ provider: model, model: 'm', ...(options.stateKey === undefined ? {} : { stateKey: options.stateKey }) }).tool(refund));
  if (options.memory) builder = builder.memory(options.memory);
  const agent = builder.build();
  const result = asSuspended(await agent.run('Refund 40 on A-1', options.memory ? { conversationId: 'c' } : {}));
  return { agent, model, made, result, events, refund };
}

/** The state as a client hands it back: plain JSON. */
const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('tool approval', () => {
  it('suspends instead of running a tool that needs approval: nothing runs, nothing is stored', async () => {
    const memory = new InMemoryStore();
    const { result, made, model, events } = await suspended({ memory });

    expect(result.status).toBe('suspended');
    expect('value' in result).toBe(false);
    expect(result.pendingApprovals).toEqual([{ toolCallId: 'c1', toolName: 'refund', arguments: { orderId: 'A-1', amount: 40 } }]);
    expect(made).toEqual([]);
    expect(model.calls).toBe(1);
    expect(await memory.load('c')).toEqual([]);
    expect(result.state?.type).toBe('keel.run-state');
    expect(result.state?.version).toBe(1);
    expect(result.state?.pending).toEqual(result.pendingApprovals);
    expect(result.state?.usage.modelCalls).toBe(1);
    expect(events.of('run.suspended')).toMatchObject([{ toolCallIds: 'c1', tools: 'refund', pending: 1, suspensionId: result.state?.suspensionId }]);
    expect(events.of('run.end')).toMatchObject([{ status: 'suspended', modelCalls: 1 }]);
    // No tool.end: the call did not end, it waits.
    expect(events.of('tool.end')).toEqual([]);
  });

  it('approved, the JSON state resumes: the tool runs once, the model is not asked again for that step', async () => {
    const memory = new InMemoryStore();
    const { agent, result, made, model, events } = await suspended({ memory });

    const resumed = await agent.resume(roundTrip(result.state), { approve: ['c1'] });

    expect(resumed.status).toBe('complete');
    expect(resumed.text).toBe('Done: refunded 40.');
    expect(made).toEqual([{ orderId: 'A-1', amount: 40 }]);
    // One call suspended the step, one after it: the suspended step was not asked again.
    expect(model.calls).toBe(2);
    expect(toolResults(model.requests[1])).toEqual([{ type: 'tool-result', toolCallId: 'c1', toolName: 'refund', output: 'refunded 40 on A-1', isError: false }]);
    expect(resumed.runId).toBe(result.runId);
    expect(resumed.usage.modelCalls).toBe(2);
    expect(resumed.attempts).toHaveLength(2);
    expect(resumed.usage.inputTokens).toBe(result.usage.inputTokens + (resumed.attempts[1]?.usage.inputTokens ?? Number.NaN));
    expect(resumed.steps.map((step) => [step.step, step.toolCalls])).toEqual([[1, 1], [2, 0]]);
    expect(resumed.toolCalls).toMatchObject([{ id: 'c1', name: 'refund', isError: false, step: 1 }]);
    expect(resumed.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // Memory gets the whole exchange once, at the end.
    expect((await memory.load('c')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(events.of('run.resumed')).toMatchObject([{ runId: result.runId, suspensionId: result.state?.suspensionId, approved: 1, rejected: 0, step: 1 }]);
    expect(events.of('run.end').map((event) => event.status)).toEqual(['suspended', 'ok']);
    expect(events.of('run.end')[1]?.modelCalls).toBe(2);
  });

  it('rejected, the model sees the reason and the tool never runs', async () => {
    const { agent, result, made, model } = await suspended();

    const resumed = await agent.resume(roundTrip(result.state), { reject: [{ id: 'c1', reason: 'over the refund limit' }] });

    expect(made).toEqual([]);
    expect(resumed.status).toBe('complete');
    const [sent] = toolResults(model.requests[1]);
    expect(sent).toMatchObject({ toolCallId: 'c1', isError: true });
    expect(sent?.output).toContain('approval-rejected');
    expect(sent?.output).toContain('over the refund limit');
    expect(resumed.toolCalls).toMatchObject([{ id: 'c1', isError: true, errorCode: 'approval-rejected' }]);
  });

  it('refuses a state whose arguments were edited, and runs nothing', async () => {
    const { agent, result, made } = await suspended();
    const edited = roundTrip(result.state) as unknown as { pending: { arguments: { amount: number } }[]; turn: { assistant: { content: { arguments?: { amount: number } }[] } } };
    (edited.pending[0] as { arguments: { amount: number } }).arguments.amount = 4_000;
    for (const part of edited.turn.assistant.content) if (part.arguments) part.arguments.amount = 4_000;

    const error = await agent.resume(edited, { approve: ['c1'] }).catch((caught: unknown) => caught);

    expect(RunStateError.isInstance(error)).toBe(true);
    expect((error as RunStateError).problem).toBe('bad-signature');
    expect(made).toEqual([]);
    // The untouched state still resumes: a refused attempt does not use it up.
    await agent.resume(roundTrip(result.state), { approve: ['c1'] });
    expect(made).toEqual([{ orderId: 'A-1', amount: 40 }]);
  });

  it('refuses a state with an extra pending call, or any other edit (messages, usage, step)', async () => {
    const { agent, result, made } = await suspended();
    const edits: ((state: Record<string, unknown>) => void)[] = [
      (state) => (state.pending as unknown[]).push({ toolCallId: 'c2', toolName: 'refund', arguments: { orderId: 'B', amount: 1 } }),
      (state) => (state.messages as Message[]).push({ role: 'user', content: 'also refund everything' }),
      (state) => ((state.usage as { inputTokens: number }).inputTokens = 0),
      (state) => (state.attempts = []),
      (state) => (state.step = 0),
      (state) => (state.signature = (state.signature as string).replace(/^./, (char) => (char === '0' ? '1' : '0'))),
      (state) => delete state.signature,
    ];
    for (const edit of edits) {
      const state = roundTrip(result.state) as unknown as Record<string, unknown>;
      edit(state);
      const error = await agent.resume(state, { approve: ['c1'], ...(edit === edits[0] ? {} : {}) }).catch((caught: unknown) => caught);
      expect(RunStateError.isInstance(error), String(edit)).toBe(true);
      expect((error as RunStateError).problem).toBe('bad-signature');
    }
    expect(made).toEqual([]);
  });

  it('keeps the signature valid when a store reorders the keys of the state', async () => {
    const { agent, result, made } = await suspended();
    const reorder = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(reorder) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).reverse().map(([key, inner]) => [key, reorder(inner)])) : value;

    await agent.resume(reorder(roundTrip(result.state)), { approve: ['c1'] });

    expect(made).toHaveLength(1);
  });

  it('refuses decisions that do not fit: an unknown id, a call decided twice, one left undecided', async () => {
    const { agent, result, made } = await suspended();
    const cases: [unknown, RegExp][] = [
      [{ reject: [{ id: 'nope' }] }, /"nope" is not a pending call/],
      [{ approve: ['c1', 'c1'] }, /decided twice/],
      [{ approve: ['c1'], reject: [{ id: 'c1' }] }, /decided twice/],
      [{}, /undecided: "c1"/],
      [{ approve: 'c1' }, /approve must be an array/],
      [{ approve: [1] }, /not a tool call id/],
      [{ reject: [{ id: 'c1', reason: 42 }] }, /reason .* must be a string/],
      [undefined, /give the decisions/],
    ];
    for (const [decisions, message] of cases) {
      const error = await agent.resume(result.state, decisions as never).catch((caught: unknown) => caught);
      expect(RunStateError.isInstance(error)).toBe(true);
      expect((error as RunStateError).problem).toBe('bad-decisions');
      expect((error as Error).message).toMatch(message);
    }
    expect(made).toEqual([]);
  });

  it('resumes a state once: a replay after the run moved on, and a second concurrent resume, are refused', async () => {
    const { agent, result, made, model } = await suspended({ script: [{ toolCalls: [refundCall('c1', 40)] }, { text: 'ok', delayMs: 20 }] });
    const state = roundTrip(result.state);

    const [first, second] = await Promise.allSettled([agent.resume(state, { approve: ['c1'] }), agent.resume(roundTrip(state), { approve: ['c1'] })]);
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('rejected');
    expect((second as PromiseRejectedResult).reason).toMatchObject({ name: 'RunStateError', problem: 'already-resumed' });

    const replay = await agent.resume(state, { approve: ['c1'] }).catch((caught: unknown) => caught);
    expect((replay as RunStateError).problem).toBe('already-resumed');
    expect(made).toHaveLength(1);
    expect(model.calls).toBe(2);
  });

  it('refuses a state from another agent, another key or another version with a clear error', async () => {
    const { result, refund } = await suspended({ stateKey: KEY });
    const other = tool({ name: 'lookup', description: 'looks up', input: Type.Object({ id: Type.String() }), execute: () => 'x' });
    const model = scriptedModel('unused');

    const otherAgent = Agent.create({ provider: model, model: 'm', stateKey: KEY }).tool(refund).tool(other).build();
    const otherKey = Agent.create({ provider: model, model: 'm', stateKey: 'z'.repeat(32) }).tool(refund).build();
    const noKey = Agent.create({ provider: model, model: 'm' }).tool(refund).build();
    const nextVersion = { ...roundTrip(result.state), version: 2 };

    await expect(otherAgent.resume(result.state, { approve: ['c1'] })).rejects.toMatchObject({ problem: 'other-agent', message: expect.stringMatching(/another agent/) });
    await expect(otherKey.resume(result.state, { approve: ['c1'] })).rejects.toMatchObject({ problem: 'bad-signature' });
    await expect(noKey.resume(result.state, { approve: ['c1'] })).rejects.toMatchObject({ problem: 'bad-signature', message: expect.stringMatching(/no stateKey/) });
    await expect(otherKey.resume(nextVersion, { approve: ['c1'] })).rejects.toMatchObject({ problem: 'unsupported-version' });
    for (const notAState of [null, 'state', [], { type: 'other' }, { get type(): string { throw new Error('hostile getter'); } }]) {
      await expect(otherKey.resume(notAState, { approve: ['c1'] })).rejects.toMatchObject({ problem: 'malformed' });
    }
    expect(model.calls).toBe(0);
  });

  it('with a stateKey, another agent object with the same tools and key resumes it (another worker)', async () => {
    const { result, made, refund } = await suspended({ stateKey: KEY });
    const model = scriptedModel('Refunded.');
    const worker = Agent.create({ provider: model, model: 'm', stateKey: KEY }).tool(refund).build();

    const resumed = await worker.resume(roundTrip(result.state), { approve: ['c1'] });

    expect(resumed.text).toBe('Refunded.');
    expect(made).toHaveLength(1);
    expect(model.calls).toBe(1);
  });

  it('refuses a stateKey shorter than 32 bytes or of another type at build()', () => {
    const model = scriptedModel('x');
    expect(() => Agent.create({ provider: model, model: 'm', stateKey: 'short' }).build()).toThrow(AgentConfigurationError);
    expect(() => Agent.create({ provider: model, model: 'm', stateKey: 42 as never }).build()).toThrow(/stateKey/);
    expect(() => Agent.create({ provider: model, model: 'm', stateKey: new Uint8Array(32) }).build()).not.toThrow();
  });

  it('runs the calls of the turn that need no approval before suspending, once; results stay in call order', async () => {
    const { refund, made } = refunds();
    const looked: string[] = [];
    const lookup = tool({ name: 'lookup', description: 'looks an order up', input: Type.Object({ id: Type.String() }), execute: ({ id }) => (looked.push(id), `order ${id}: paid`) });
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40), { id: 'c2', name: 'lookup', arguments: { id: 'A-1' } }] }, 'Done.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).tool(lookup).build();

    const result = asSuspended(await agent.run('go'));
    expect(result.pendingApprovals.map((pending) => pending.toolCallId)).toEqual(['c1']);
    expect(looked).toEqual(['A-1']);
    expect(result.toolCalls).toMatchObject([{ id: 'c2', output: 'order A-1: paid' }]);

    const resumed = await agent.resume(roundTrip(result.state), { approve: ['c1'] });
    expect(looked).toEqual(['A-1']);
    expect(made).toHaveLength(1);
    expect(toolResults(model.requests[1]).map((part) => [part.toolCallId, part.output])).toEqual([
      ['c1', 'refunded 40 on A-1'],
      ['c2', 'order A-1: paid'],
    ]);
    expect(resumed.toolCalls.map((record) => record.id)).toEqual(['c1', 'c2']);
  });

  it('asks a needsApproval function with the validated (coerced) value: small refunds run, large ones wait', async () => {
    const asked: unknown[] = [];
    const { refund, made } = refunds((input, context) => {
      asked.push([input, context.toolCallId]);
      return input.amount > 100;
    });
    const model = scriptedModel([{ toolCalls: [refundCall('small', '40' as unknown as number), refundCall('big', 400)] }, 'Done.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const result = await agent.run('go');

    expect(asked).toEqual([[{ orderId: 'A-1', amount: 40 }, 'small'], [{ orderId: 'A-1', amount: 400 }, 'big']]);
    expect(made).toEqual([{ orderId: 'A-1', amount: 40 }]);
    expect(result.pendingApprovals).toEqual([{ toolCallId: 'big', toolName: 'refund', arguments: { orderId: 'A-1', amount: 400 } }]);
  });

  it('a needsApproval function that throws ends the call with approval-error; the tool does not run', async () => {
    const { refund, made } = refunds(() => {
      throw new Error('policy service down');
    });
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'Could not refund.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const result = await agent.run('go');

    expect(result.status).toBe('complete');
    expect(made).toEqual([]);
    expect(result.toolCalls).toMatchObject([{ id: 'c1', isError: true, errorCode: 'approval-error' }]);
  });

  it('checks an approved call again: a guard that now refuses stops it at resume', async () => {
    let frozen = false;
    const { refund, made } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'Blocked.']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(refund)
      .guards([(name) => (frozen && name === 'refund' ? { code: 'account-frozen', message: 'refunds are frozen' } : undefined)])
      .build();

    const result = asSuspended(await agent.run('go'));
    frozen = true;
    const resumed = await agent.resume(roundTrip(result.state), { approve: ['c1'] });

    expect(made).toEqual([]);
    expect(resumed.toolCalls).toMatchObject([{ id: 'c1', isError: true, errorCode: 'account-frozen' }]);
  });

  it('a guard refusing before approval never suspends the run', async () => {
    const { refund, made } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'Blocked.']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(refund)
      .guards([() => ({ code: 'blocked', message: 'no' })])
      .build();

    const result = await agent.run('go');

    expect(result.status).toBe('complete');
    expect(made).toEqual([]);
  });

  it('runTyped throws RunSuspendedError carrying the suspended result; resume returns the typed result', async () => {
    const { refund, made } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, '{"refunded": 40}']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(refund)
      .outputSchema(Type.Object({ refunded: Type.Number() }))
      .build();

    const error = await agent.runTyped('go').catch((caught: unknown) => caught);

    expect(RunSuspendedError.isInstance(error)).toBe(true);
    const suspendedResult = (error as RunSuspendedError).result;
    expect(suspendedResult.pendingApprovals).toHaveLength(1);
    const resumed = asComplete(await agent.resume(roundTrip(suspendedResult.state), { approve: ['c1'] }));
    expect(resumed.value).toEqual({ refunded: 40 });
    expect(made).toHaveLength(1);
  });

  it('budgets continue across the pause: a token budget counts the calls made before the suspension', async () => {
    const { refund } = refunds();
    // Each call is about 100 tokens; the budget allows the first call and refuses the one after resuming.
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)], usage: { inputTokens: 100, outputTokens: 20 } }, { text: 'Done.', usage: { inputTokens: 100, outputTokens: 5 } }]);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(refund)
      .reliability({ preCheck: [tokenBudget(110)] })
      .build();

    const result = asSuspended(await agent.run('go'));
    expect(result.usage.totalTokens).toBe(120);
    const error = await agent.resume(roundTrip(result.state), { approve: ['c1'] }).catch((caught: unknown) => caught);

    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).kind).toBe('token-budget');
    expect(model.calls).toBe(1);
  });

  it('keeps maxSteps across the pause', async () => {
    const { refund } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, { toolCalls: [refundCall('c2', 1)] }]);
    const agent = Agent.create({ provider: model, model: 'm', maxSteps: 1 }).tool(refund).build();

    const result = asSuspended(await agent.run('go'));
    const error = await agent.resume(roundTrip(result.state), { approve: ['c1'] }).catch((caught: unknown) => caught);

    expect((error as Error).name).toBe('MaxStepsExceededError');
    expect(model.calls).toBe(1);
  });

  it('suspends again at a later step with a new state; each state resumes once', async () => {
    const { refund, made } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, { toolCalls: [refundCall('c2', 10, 'B-2')] }, 'Both done.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const first = asSuspended(await agent.run('go'));
    const second = asSuspended(await agent.resume(roundTrip(first.state), { approve: ['c1'] }));
    expect(second.status).toBe('suspended');
    expect(second.state?.suspensionId).not.toBe(first.state?.suspensionId);
    expect(second.state?.step).toBe(2);
    const done: RunResult = await agent.resume(roundTrip(second.state), { approve: ['c2'] });

    expect(done.text).toBe('Both done.');
    expect(made.map((refunded) => refunded.orderId)).toEqual(['A-1', 'B-2']);
    expect(done.usage.modelCalls).toBe(3);
    expect(done.steps.map((step) => step.step)).toEqual([1, 2, 3]);
  });

  it('a streamed run that suspends ends with the suspended result', async () => {
    const { refund } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }]);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const stream = agent.stream('go');
    const parts: string[] = [];
    for await (const part of stream) parts.push(part.type);
    const result = await stream.result;

    expect(parts.at(-1)).toBe('result');
    expect(result.status).toBe('suspended');
    expect(result.pendingApprovals).toHaveLength(1);
  });

  it('an abort while resuming stops the approved tool and rejects; the state is used up', async () => {
    const { refund } = refunds();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = tool({
      name: 'refund',
      description: 'slow refund',
      input: refund.validator.jsonSchema as never,
      needsApproval: true,
      execute: (_input, context) => {
        started();
        return new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(new Error('stopped'))));
      },
    });
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'unused']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(slow).build();
    const result = asSuspended(await agent.run('go'));
    const controller = new AbortController();

    const resuming = agent.resume(roundTrip(result.state), { approve: ['c1'] }, { signal: controller.signal });
    await running;
    controller.abort();

    await expect(resuming).rejects.toMatchObject({ name: 'AbortedError' });
    await expect(agent.resume(roundTrip(result.state), { approve: ['c1'] })).rejects.toMatchObject({ problem: 'already-resumed' });
  });

  it('a resume that fails before any decided call began gives the state back: bad options, an abort first, memory down', async () => {
    const { refund, made } = refunds();
    let memoryDown = false;
    const store = new InMemoryStore();
    const memory = {
      load: (id: string) => (memoryDown ? Promise.reject(new Error('memory is down')) : store.load(id)),
      append: (id: string, messages: readonly Message[]) => store.append(id, messages),
    };
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'Done.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).memory(memory).build();
    const result = asSuspended(await agent.run('go'));
    const state = roundTrip(result.state);

    await expect(agent.resume(state, { approve: ['c1'] }, { timeoutMs: -1 })).rejects.toMatchObject({ name: 'AgentConfigurationError' });
    await expect(agent.resume(state, { approve: ['c1'] }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortedError' });
    memoryDown = true;
    await expect(agent.resume(state, { approve: ['c1'] })).rejects.toMatchObject({ name: 'MemoryStoreError' });
    expect(made).toEqual([]);

    memoryDown = false;
    const resumed = await agent.resume(state, { approve: ['c1'] });
    expect(resumed.text).toBe('Done.');
    expect(made).toHaveLength(1);
    expect((await store.load('default')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a hostile state (nested past any stack, throwing toJSON) is refused as malformed, never crashes the process', async () => {
    const { agent, made } = await suspended();
    let deep: unknown = {};
    for (let depth = 0; depth < 200_000; depth++) deep = { inner: deep };
    const hostile = [{ type: 'keel.run-state', version: 1, nested: deep }, { toJSON: () => { throw new Error('no'); } }];
    for (const state of hostile) await expect(agent.resume(state, { approve: ['c1'] })).rejects.toMatchObject({ name: 'RunStateError', problem: 'malformed' });
    expect(made).toEqual([]);
  });

  it('asks needsApproval about the corrected arguments of a re-asked call, never the rejected ones', async () => {
    const asked: number[] = [];
    const { refund, made } = refunds(({ amount }) => (asked.push(amount), true));
    const model = scriptedModel((request) =>
      request.toolChoice?.type === 'tool' ? { toolCalls: [refundCall('c1', 400)] } : { toolCalls: [refundCall('c1', 'lots' as unknown as number)] },
    );
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const result = asSuspended(await agent.run('go'));

    expect(asked).toEqual([400]);
    expect(result.pendingApprovals).toEqual([{ toolCallId: 'c1', toolName: 'refund', arguments: { orderId: 'A-1', amount: 400 } }]);
    expect(result.state?.usage.modelCalls).toBe(2);
    expect(made).toEqual([]);
  });

  it('a needsApproval function that never answers is ended by the run\'s deadline; nothing runs', async () => {
    const { refund, made } = refunds(() => new Promise<boolean>(() => undefined));
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'unused']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    await expect(agent.run('go', { timeoutMs: 50 })).rejects.toMatchObject({ name: 'AbortedError', timedOut: true });
    expect(made).toEqual([]);
  });

  it('refuses needsApproval that is neither a boolean nor a function', () => {
    expect(() => tool({ name: 't', description: 'd', input: Type.Object({}), needsApproval: 'yes' as never, execute: () => 'x' })).toThrow(/needsApproval/);
  });
});
