import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, InMemoryStore, tool } from '../index';
import type { ModelProvider, ModelResponse, ReliabilityRule } from '../index';
import type { PreCheckRule } from '@keel/reliability';
import { scriptedModel, asComplete } from '../testing/index';

const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() });

const noop = (name: string) =>
  tool({ name, description: `the ${name} tool`, input: Type.Object({}), execute: () => name });

/** Runs `build` and returns the configuration error it throws (fails the test when it does not throw one). */
function configurationError(build: () => unknown): AgentConfigurationError {
  try {
    build();
  } catch (error) {
    expect(AgentConfigurationError.isInstance(error)).toBe(true);
    return error as AgentConfigurationError;
  }
  throw new Error('expected an AgentConfigurationError, but nothing was thrown');
}

describe('AgentBuilder immutability', () => {
  it('returns a new builder from every call', () => {
    const base = Agent.create({ provider: scriptedModel('ok'), model: 'm' });
    const store = new InMemoryStore();
    const calls = [
      base.system('s'),
      base.tool(noop('a')),
      base.tools([noop('a')]),
      base.guards([() => undefined]),
      base.memory(store),
      base.on('run.start', () => {}),
      base.outputSchema(Type.Object({ a: Type.String() })),
      base.reliability({ defaults: false }),
    ];
    for (const next of calls) expect(next).not.toBe(base);
    expect(new Set(calls).size).toBe(calls.length);
  });

  it('keeps branches of one base apart: tools and system do not leak', async () => {
    const model = scriptedModel('done');
    const base = Agent.create({ provider: model, model: 'm' }).tool(noop('shared'));
    const first = base.tool(noop('only_first')).system('first system').build();
    const second = base.tool(noop('only_second')).system('second system').build();
    const plain = base.build();

    await first.run('hi');
    await second.run('hi');
    await plain.run('hi');

    const [firstRequest, secondRequest, plainRequest] = model.requests;
    expect(firstRequest?.tools?.map((spec) => spec.name)).toEqual(['shared', 'only_first']);
    expect(firstRequest?.system).toBe('first system');
    expect(secondRequest?.tools?.map((spec) => spec.name)).toEqual(['shared', 'only_second']);
    expect(secondRequest?.system).toBe('second system');
    expect(plainRequest?.tools?.map((spec) => spec.name)).toEqual(['shared']);
    expect(plainRequest?.system).toBeUndefined();
  });

  it('does not count a once-only setting given on two branches as given twice', async () => {
    const model = scriptedModel('ok');
    const base = Agent.create({ provider: model, model: 'm' });
    const left = base.system('left').memory(new InMemoryStore());
    const right = base.system('right').memory(new InMemoryStore());
    // Each branch builds with its own once-only settings, and runs with its own system prompt.
    await left.build().run('go');
    await right.build().run('go');
    expect(model.requests.map((request) => request.system)).toEqual(['left', 'right']);
  });
});

describe('AgentBuilder.build() validation', () => {
  const base = () => Agent.create({ provider: scriptedModel('ok'), model: 'm' });

  it.each([
    ['system', () => base().system('a').system('b')],
    ['memory', () => base().memory(new InMemoryStore()).memory(new InMemoryStore())],
    ['outputSchema', () => base().outputSchema(Type.String()).outputSchema(Type.Number())],
  ])('rejects %s given twice', (setting, builder) => {
    const error = configurationError(() => builder().build());
    expect(error).toBeInstanceOf(AgentConfigurationError);
    expect(error.setting).toBe(setting);
    expect(error.message).toContain(setting);
    expect(error.message).toContain('given twice');
    expect(error.retryable).toBe(false);
  });

  it('rejects a tool name used twice, naming the tool', () => {
    const error = configurationError(() => base().tool(noop('search')).tools([noop('other'), noop('search')]).build());
    expect(error.setting).toBe('tool:search');
    expect(error.message).toContain('tool:search');
    expect(error.message).toContain('used twice');
  });

  it.each([0, 1.5, -1])('rejects maxSteps %s', (maxSteps) => {
    const error = configurationError(() => Agent.create({ provider: scriptedModel('ok'), model: 'm', maxSteps }).build());
    expect(error.setting).toBe('maxSteps');
    expect(error.message).toContain(`got ${maxSteps}`);
  });

  it('rejects toolRetries -1', () => {
    const error = configurationError(() => Agent.create({ provider: scriptedModel('ok'), model: 'm', toolRetries: -1 }).build());
    expect(error.setting).toBe('toolRetries');
    expect(error.message).toContain('got -1');
  });

  it('accepts toolRetries 0 and maxSteps 1, and runs with them', async () => {
    const result = await Agent.create({ provider: scriptedModel('ok'), model: 'm', toolRetries: 0, maxSteps: 1 }).build().run('go');
    expect(result.steps).toHaveLength(1);
  });

  it('rejects a provider without specificationVersion', () => {
    const { specificationVersion: _dropped, ...legacy } = scriptedModel('ok');
    const error = configurationError(() => Agent.create({ provider: legacy as unknown as ModelProvider, model: 'm' }).build());
    expect(error.setting).toBe('provider');
    expect(error.message).toContain('specificationVersion');
  });

  it('rejects a fallback provider without specificationVersion, naming its index', () => {
    const { specificationVersion: _dropped, ...legacy } = scriptedModel('ok');
    const error = configurationError(() =>
      Agent.create({ provider: scriptedModel('ok'), model: 'm', failover: [{ provider: legacy as unknown as ModelProvider, model: 'n' }] }).build(),
    );
    expect(error.setting).toBe('failover[0]');
  });

  it.each(['', '   '])('rejects an empty model id %j', (model) => {
    const error = configurationError(() => Agent.create({ provider: scriptedModel('ok'), model }).build());
    expect(error.setting).toBe('model');
    expect(error.message).toContain('model id');
  });

  it("rejects a PreCheck rule that decides 'retry'", () => {
    const rule: ReliabilityRule<ModelResponse> = { kind: 'my-precheck', when: () => true, then: 'retry' };
    const error = configurationError(() => base().reliability({ preCheck: [rule as unknown as PreCheckRule<ModelResponse>] }).build());
    expect(error.setting).toBe('reliability.preCheck:my-precheck');
    expect(error.message).toContain('retry');
  });

  it('rejects outputFallback without an outputSchema', () => {
    const error = configurationError(() => base().outputFallback({ canned: 'sorry' }).build());
    expect(error.setting).toBe('outputFallback');
    expect(error.message).toContain('outputSchema');
  });

  it('rejects a canned value that fails the output schema, saying so', () => {
    const error = configurationError(() =>
      base()
        .outputSchema(Type.Object({ answer: Type.String() }))
        .outputFallback({ canned: { answer: 42 } as unknown as { answer: string } })
        .build(),
    );
    expect(error.setting).toBe('outputFallback.canned');
    expect(error.message).toContain('the canned value fails the output schema');
  });

  it('accepts a canned value that passes the output schema, and uses it when the model fails', async () => {
    const agent = Agent.create({ provider: scriptedModel('not json'), model: 'm' })
      .outputSchema(Type.Object({ answer: Type.String() }))
      .outputFallback({ canned: { answer: 'unknown' } })
      .build();
    const result = asComplete(await agent.run('go'));
    expect([result.value, result.provenance]).toEqual([{ answer: 'unknown' }, 'canned']);
  });
});

describe('tool()', () => {
  it.each(['', 'has space', 'dots.not.allowed', 'x'.repeat(65)])('rejects the name %j', (name) => {
    const error = configurationError(() => tool({ name, description: 'd', input: Type.Object({}), execute: () => 'x' }));
    expect(error.setting).toBe(`tool:${name}`);
    expect(error.message).toContain('tool name');
  });

  it('accepts letters, digits, _ and - up to 64 characters', () => {
    expect(tool({ name: `get_weather-2${'x'.repeat(51)}`, description: 'd', input: Type.Object({}), execute: () => 'x' }).name).toHaveLength(64);
  });
});

describe('configuration contradictions', () => {
  it('reliability({ defaults: false }) with outputSchema maxRetries is rejected at build', () => {
    const build = () => Agent.create({ provider: scriptedModel('{}'), model: 'm' }).outputSchema(Refund, { maxRetries: 4 }).reliability({ defaults: false }).build();
    expect(build).toThrow(AgentConfigurationError);
    expect(build).toThrow(/reliability\.defaults/);
  });
});

describe('renamed options', () => {
  it('refuses an option of an earlier version, naming its new name', () => {
    const legacy = { provider: scriptedModel('ok'), model: 'm', maxAttemptsPerStep: 3 } as unknown as Parameters<typeof Agent.create>[0];
    const error = configurationError(() => Agent.create(legacy).build());
    expect(error.setting).toBe('maxAttemptsPerStep');
    expect(error.message).toContain('renamed to maxAttempts');
    const output = configurationError(() => Agent.create({ provider: scriptedModel('{}'), model: 'm' }).outputSchema(Refund, { maxAttempts: 3 } as never).build());
    expect(output.setting).toBe('outputSchema.maxAttempts');
    expect(output.message).toContain('maxRetries');
  });
});

describe('reliability() is additive', () => {
  const refusing = (kind: string, seen: string[]): PreCheckRule<ModelResponse> => ({
    kind,
    then: 'fail-fast',
    when: () => {
      seen.push(kind);
      return kind === 'second';
    },
  });

  it('runs the PreCheck rules of every call, in the order given', async () => {
    const seen: string[] = [];
    const agent = Agent.create({ provider: scriptedModel('ok'), model: 'm' })
      .reliability({ preCheck: [refusing('first', seen)] })
      .reliability({ preCheck: [refusing('second', seen)] })
      .build();
    await expect(agent.run('hi')).rejects.toMatchObject({ kind: 'second', phase: 'pre-check' });
    expect(seen).toEqual(['first', 'second']);
  });

  it('keeps the PostDecide rules of the first call first (first match wins)', async () => {
    const rule = (kind: string): ReliabilityRule<ModelResponse> => ({ kind, when: () => true, then: 'fail-fast' });
    const agent = Agent.create({ provider: scriptedModel('ok'), model: 'm' })
      .reliability({ postDecide: [rule('mine')] })
      .use((builder) => builder.reliability({ postDecide: [rule('extension')] }))
      .build();
    await expect(agent.run('hi')).rejects.toMatchObject({ kind: 'mine' });
  });

  it('keeps defaults: false given once, and refuses two different defaults', async () => {
    const model = scriptedModel([Object.assign(new Error('busy'), { status: 529 }), 'ok']);
    const agent = Agent.create({ provider: model, model: 'm' }).reliability({ defaults: false }).reliability({ preCheck: [] }).build();
    await expect(agent.run('hi')).rejects.toMatchObject({ errorKind: 'overloaded' });
    const error = configurationError(() => Agent.create({ provider: scriptedModel('ok'), model: 'm' }).reliability({ defaults: false }).reliability({ defaults: true }).build());
    expect(error.setting).toBe('reliability.defaults');
  });
});
