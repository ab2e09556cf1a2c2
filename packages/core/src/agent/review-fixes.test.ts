import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { AbortedError, Agent, AgentConfigurationError, idShapeGuard, ReliabilityFailFastError, tool } from '../index';
import type { ModelProviderV1 } from '../model/model-provider-v1';
import { scriptedModel } from '../test/index';

const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() });

describe('failures that must surface, not degrade', () => {
  it('a rule that throws fails the run; it never hands out the canned fallback', async () => {
    const model = scriptedModel(['{"action":"refund","amount":"USD 50"}', '{"action":"refund","amount":50}']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .outputSchema(Refund)
      .outputFallback({ canned: { action: 'reject', amount: 0 } })
      .rules({
        postDecide: [
          {
            kind: 'buggy',
            then: 'retry',
            when: (scope) => {
              if (scope.errorKind === 'schema-fail') throw new Error('rule bug');
              return false;
            },
          },
        ],
      })
      .build();
    const error = await agent.run('Refund?').catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && error.kind).toBe('rule-error');
  });

  it('a tool whose validator crashes gives the model a VALIDATOR_ERROR result; the run goes on', async () => {
    const base = tool({ name: 'lookup', description: 'Looks up', input: Type.Object({}), execute: () => 'never' });
    const broken = {
      ...base,
      validator: {
        ...base.validator,
        validate: () => {
          throw new Error('validator bug');
        },
      },
    };
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: {} }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(broken).build().run('go');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'VALIDATOR_ERROR' });
    expect(result.text).toBe('done');
  });

  it('when one tool call of a turn fails the run, its siblings settle before the run ends', async () => {
    const order: string[] = [];
    const slow = tool({
      name: 'slow',
      description: 'slow',
      input: Type.Object({}),
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        order.push('slow done');
        return 'ok';
      },
    });
    const strict = tool({ name: 'strict', description: 'strict', input: Type.Object({ n: Type.Number() }), execute: () => 'ok' });
    const model = scriptedModel([
      { toolCalls: [{ name: 'slow', arguments: {} }, { name: 'strict', arguments: { n: 'x' } }] },
      Object.assign(new Error('invalid key'), { errorKind: 'auth' }),
    ]);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tools([slow, strict])
      .on('run.end', () => void order.push('run.end'))
      .build();
    await expect(agent.run('go')).rejects.toSatisfy(ReliabilityFailFastError.isInstance);
    expect(order).toEqual(['slow done', 'run.end']);
  });

  it('an abort rejects promptly even when the provider ignores the signal', async () => {
    const deaf: ModelProviderV1 = { specificationVersion: 'v1', name: 'deaf', generate: () => new Promise(() => undefined) };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(Agent.create({ provider: deaf, model: 'm' }).build().run('hi', { signal: controller.signal })).rejects.toSatisfy(AbortedError.isInstance);
  });
});

describe('configuration contradictions', () => {
  it('rules({ defaults: false }) with outputSchema maxAttempts is rejected at build', () => {
    const build = () => Agent.create({ provider: scriptedModel('{}'), model: 'm' }).outputSchema(Refund, { maxAttempts: 5 }).rules({ defaults: false }).build();
    expect(build).toThrow(AgentConfigurationError);
    expect(build).toThrow(/rules\.defaults/);
  });
});

describe('idShapeGuard', () => {
  it('gives the same verdict on every call, even with a global pattern', () => {
    const guard = idShapeGuard({ fields: ['id'], pattern: /^[a-f0-9]{8}$/g });
    expect([1, 2, 3].map(() => guard('t', { id: 'deadbeef' }))).toEqual([undefined, undefined, undefined]);
  });
});

describe('edges of accepting and streaming', () => {
  it("a rule accepting a failed call with 'ok' ends the run with no text and no value", async () => {
    const model = scriptedModel([Object.assign(new Error('upstream down'), { errorKind: 'server-error' })]);
    const result = await Agent.create({ provider: model, model: 'm' })
      .rules({ postDecide: [{ kind: 'tolerate', then: 'ok', when: (scope) => scope.errorKind === 'server-error' }] })
      .build()
      .run('hi');
    expect(result).toMatchObject({ text: '', value: undefined, finishReason: 'error' });
    expect(result.attempts.map((attempt) => attempt.errorType)).toEqual(['server-error']);
  });

  it('a stream that ends without its final part after showing text is reported, not retried', async () => {
    let calls = 0;
    const cut: ModelProviderV1 = {
      specificationVersion: 'v1',
      name: 'cut',
      generate: () => Promise.reject(new Error('not used')),
      async *stream() {
        calls++;
        yield { type: 'text-delta' as const, text: 'Hel' };
      },
    };
    const error = await Agent.create({ provider: cut, model: 'm' }).build().stream('hi').result.catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && error.message).toContain('not retried');
    expect(calls).toBe(1);
  });

  it('an abort stops a stream that ignores the signal', async () => {
    const deaf: ModelProviderV1 = {
      specificationVersion: 'v1',
      name: 'deaf',
      generate: () => Promise.reject(new Error('not used')),
      async *stream() {
        yield { type: 'text-delta' as const, text: 'Hel' };
        await new Promise(() => undefined);
      },
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(Agent.create({ provider: deaf, model: 'm' }).build().stream('hi', { signal: controller.signal }).result).rejects.toSatisfy(AbortedError.isInstance);
  });
});
