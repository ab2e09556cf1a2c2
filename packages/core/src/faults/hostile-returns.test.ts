import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { costBudget, tokenBudget } from '@keel/reliability';
import { Agent, AgentConfigurationError, ReliabilityFailFastError, tool, type ToolGuard } from '../index';
import { scriptedModel, asComplete } from '../testing/index';

/**
 * What user code returns is read as carefully as what it throws: a guard's rejection, a rule and
 * its `when` answer, a tool's `toJSON` — a hostile or malformed one never escapes raw, never
 * loops, and never switches a cap off.
 */

const trap = () => {
  throw new Error('trap');
};
const hostileProxy = () => new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap });

const probeTool = (execute: () => unknown = () => 'x') => tool({ name: 'probe', description: 'probe', input: Type.Object({}), execute });
const oneToolCall = () => scriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, 'done']);

describe('a guard returning something other than a rejection', () => {
  it.each<[string, () => unknown, string]>([
    ['a string', () => 'no', 'guard-rejected'],
    ['an object with a number code', () => ({ code: 5, message: { not: 'text' } }), 'guard-rejected'],
    ['a Proxy that throws on every trap', hostileProxy, 'guard-error'],
  ])('%s: an error result coded %s, and the run goes on', async (_name, returned, code) => {
    const guard = (() => returned()) as unknown as ToolGuard;
    const result = asComplete(await Agent.create({ provider: oneToolCall(), model: 'm' }).tool(probeTool()).guards([guard]).build().run('go'));
    expect(result.value).toBe('done');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: code });
    expect(typeof result.toolCalls[0]?.output).toBe('string');
  });
});

describe('rules', () => {
  it("a when returning a Proxy that throws on every trap is the rule's error: a rule-error stop", async () => {
    const error = await Agent.create({ provider: scriptedModel('ok'), model: 'm' })
      .reliability({ postDecide: [{ kind: 'hostile', then: 'accept', when: () => hostileProxy() as never }] })
      .build()
      .run('go')
      .catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).kind).toBe('rule-error');
  });

  it.each<[string, unknown, string]>([
    ['an unknown decision', { kind: 'odd', when: () => true, then: 'again' }, 'reliability.postDecide:odd'],
    ['null', null, 'reliability.postDecide:0'],
    ['a rule without when', { kind: 'blind', then: 'accept' }, 'reliability.postDecide:blind'],
  ])('a PostDecide rule that is %s is refused at build(), before it could loop the gate', (_name, rule, setting) => {
    const build = () => Agent.create({ provider: scriptedModel('ok'), model: 'm' }).reliability({ postDecide: [rule as never] }).build();
    expect(build).toThrow(AgentConfigurationError);
    try {
      build();
    } catch (error) {
      expect((error as AgentConfigurationError).setting).toBe(setting);
    }
  });

  it('a decision that changes after build() stops the run within maxAttempts, never loops', async () => {
    let reads = 0;
    const shifty = {
      kind: 'shifty',
      when: () => true,
      get then() {
        // Valid when checked, nonsense when applied.
        return (reads++ < 1 ? 'accept' : 'again') as 'accept';
      },
    };
    const model = scriptedModel('ok');
    const error = await Agent.create({ provider: model, model: 'm', maxAttempts: 3 }).reliability({ postDecide: [shifty] }).build().run('go').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect(model.calls).toBeLessThanOrEqual(3);
  });
});

describe('budget caps', () => {
  it.each([
    ['tokenBudget(NaN)', () => tokenBudget(Number.NaN)],
    ['tokenBudget({ maxTokens }) (an object, not a count)', () => tokenBudget({ maxTokens: 100 } as never)],
    ['costBudget({ maxUsd: NaN })', () => costBudget({ maxUsd: Number.NaN })],
    ['costBudget({ maxUsd: "1" })', () => costBudget({ maxUsd: '1' as never })],
  ])('%s is refused when made: a cap that could never match is not a cap', (_name, make) => {
    expect(make).toThrow(TypeError);
  });
});

describe('tool results', () => {
  it('a result whose toJSON returns undefined is an empty result, as undefined is', async () => {
    const result = await Agent.create({ provider: oneToolCall(), model: 'm' })
      .tool(probeTool(() => ({ toJSON: () => undefined })))
      .build()
      .run('go');
    expect(result.toolCalls[0]).toMatchObject({ isError: false, output: '' });
  });
});

describe("a provider's redact hook", () => {
  const throwing = () =>
    tool({ name: 'probe', description: 'probe', input: Type.Object({}), execute: () => { throw new Error('refused key SECRET-123456'); } });
  const withRedact = (redact: (text: string) => unknown) => {
    const model = scriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, 'done']);
    return Object.assign(model, { redact }) as typeof model;
  };

  it('is applied to tool error messages before the model, the result or memory see them', async () => {
    const provider = withRedact((text) => text.replaceAll('SECRET-123456', '[redacted]'));
    const result = await Agent.create({ provider, model: 'm' }).tool(throwing()).build().run('go');
    expect(result.toolCalls[0]?.output).toContain('[redacted]');
    expect(JSON.stringify(provider.requests[1])).not.toContain('SECRET-123456');
    expect(JSON.stringify(result)).not.toContain('SECRET-123456');
  });

  it.each<[string, (text: string) => unknown]>([
    ['throws', () => trap()],
    ['returns something other than a string', () => undefined],
  ])('that %s withholds the message rather than letting it through', async (_name, redact) => {
    const result = await Agent.create({ provider: withRedact(redact), model: 'm' }).tool(throwing()).build().run('go');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-error' });
    expect(JSON.stringify(result)).not.toContain('SECRET-123456');
  });
});

describe('call wrappers', () => {
  it('a wrapper calling proceed twice makes one model call and runs a tool once', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, 'done', 'extra', 'extra']);
    let runs = 0;
    const result = asComplete(await Agent.create({ provider: model, model: 'm' })
      .tool(probeTool(() => ++runs))
      .wrapCalls((_call, proceed) => {
        proceed();
        return proceed();
      })
      .build()
      .run('go'));
    expect(result.value).toBe('done');
    expect(model.calls).toBe(2);
    expect(result.usage.modelCalls).toBe(2);
    expect(runs).toBe(1);
  });

  it('a wrapper that is not a function is refused at build()', () => {
    const build = () => Agent.create({ provider: scriptedModel('ok'), model: 'm' }).wrapCalls({} as never).build();
    expect(build).toThrow(AgentConfigurationError);
  });
});
