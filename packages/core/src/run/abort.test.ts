import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { AbortedError, Agent, tool } from '../index';
import type { AgentEvents } from '../index';
import type { ModelProviderV1 } from '@keel/provider';
import { scriptedModel } from '../testing/index';

/** Settles a promise into its rejection reason (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the run to reject, but it resolved');
}

/** Waits until `check` holds, polling on macrotasks (no wall-clock assertions). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('aborting a run', () => {
  it('rejects with AbortedError while the model call is pending, and reports run.end aborted', async () => {
    const ends: AgentEvents['run.end'][] = [];
    const errors: AgentEvents['model.error'][] = [];
    // A minute-long model turn: if the abort did not reach the provider, the test would time out.
    const model = scriptedModel({ text: 'too late', delayMs: 60_000 });
    const agent = Agent.create({ provider: model, model: 'm' })
      .on('run.end', (event) => void ends.push(event))
      .on('model.error', (event) => void errors.push(event))
      .build();
    const controller = new AbortController();

    const running = agent.run('slow question', { signal: controller.signal });
    await until(() => model.calls === 1);
    controller.abort(new Error('user pressed stop'));
    const error = await rejection(running);

    expect(AbortedError.isInstance(error)).toBe(true);
    expect((error as AbortedError).retryable).toBe(false);
    expect((error as Error).cause).toBe(controller.signal.reason);
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ status: 'aborted', errorName: 'AbortedError', steps: 0 });
    expect(errors.map((event) => event.errorKind)).toEqual(['aborted']);
    expect(model.calls).toBe(1);
  });

  it('rejects with AbortedError while a tool is running, and hands the tool the aborted signal', async () => {
    const ends: AgentEvents['run.end'][] = [];
    let toolSignal: AbortSignal | undefined;
    const hang = tool({
      name: 'hang',
      description: 'never finishes',
      input: Type.Object({}),
      execute: (_input, context) => {
        toolSignal = context.signal;
        return new Promise<string>(() => {});
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'hang', arguments: {} }] }, 'never reached']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(hang)
      .on('run.end', (event) => void ends.push(event))
      .build();
    const controller = new AbortController();

    const running = agent.run('start the tool', { signal: controller.signal });
    await until(() => toolSignal !== undefined);
    expect(toolSignal?.aborted).toBe(false);
    controller.abort();
    const error = await rejection(running);

    expect(AbortedError.isInstance(error)).toBe(true);
    expect(toolSignal?.aborted).toBe(true);
    expect(ends).toHaveLength(1);
    expect(ends[0]?.status).toBe('aborted');
    expect(model.calls).toBe(1);
  });

  it('makes no model call when the signal is already aborted', async () => {
    const ends: AgentEvents['run.end'][] = [];
    const model = scriptedModel('should not be asked');
    const agent = Agent.create({ provider: model, model: 'm' })
      .on('run.end', (event) => void ends.push(event))
      .build();
    const controller = new AbortController();
    controller.abort();

    const error = await rejection(agent.run('hello', { signal: controller.signal }));

    expect(AbortedError.isInstance(error)).toBe(true);
    expect(model.calls).toBe(0);
    expect(model.requests).toHaveLength(0);
    expect(ends.map((event) => event.status)).toEqual(['aborted']);
    expect(ends[0]?.modelCalls).toBe(0);
  });

  it('does not retry an aborted model call even with an output schema that would retry', async () => {
    const model = scriptedModel({ text: '{"a":1}', delayMs: 60_000 });
    const agent = Agent.create({ provider: model, model: 'm' })
      .outputSchema(Type.Object({ a: Type.Number() }), { maxRetries: 4 })
      .build();
    const controller = new AbortController();

    const running = agent.run('q', { signal: controller.signal });
    await until(() => model.calls === 1);
    controller.abort();

    expect(AbortedError.isInstance(await rejection(running))).toBe(true);
    expect(model.calls).toBe(1);
  });
});

describe('a provider that ignores the signal', () => {
  it('an abort rejects promptly even when the provider ignores the signal', async () => {
    const deaf: ModelProviderV1 = { specificationVersion: 'v1', name: 'deaf', generate: () => new Promise(() => undefined) };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(Agent.create({ provider: deaf, model: 'm' }).build().run('hi', { signal: controller.signal })).rejects.toSatisfy(AbortedError.isInstance);
  });
});
