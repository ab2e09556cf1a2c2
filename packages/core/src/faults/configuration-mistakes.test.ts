import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, AgentConfigurationError, type AgentOptions, tool } from '../index';
import { scriptedModel } from '../testing/index';

/** Configuration mistakes fail at build time with an AgentConfigurationError naming the setting. */

const base = (extra: Partial<AgentOptions> = {}) => Agent.create({ provider: scriptedModel('ok'), model: 'm', ...extra });

function settingOf(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    expect(AgentConfigurationError.isInstance(error)).toBe(true);
    return (error as AgentConfigurationError).setting;
  }
  throw new Error('expected a configuration error');
}

describe('schemas must be a recognised kind', () => {
  it('refuses a plain object of Zod fields as an output schema', () => {
    expect(settingOf(() => base().outputSchema({ n: z.number() } as never).build())).toBe('outputSchema');
    expect(() => base().outputSchema({ n: z.number() } as never).build()).toThrow(/unknown keyword: "n".*z\.object/);
  });

  it('refuses a JSON Schema with unknown keywords or failing the meta-schema', () => {
    expect(settingOf(() => base().outputSchema({ type: 'object', propertiez: {} } as never).build())).toBe('outputSchema');
    expect(settingOf(() => base().outputSchema({ type: 'integer-ish' } as never).build())).toBe('outputSchema');
  });

  it('accepts TypeBox, Zod and { parse }', () => {
    expect(() => base().outputSchema(Type.Object({ n: Type.Number() })).build()).not.toThrow();
    expect(() => base().outputSchema(z.object({ n: z.number() })).build()).not.toThrow();
    expect(() => base().outputSchema({ parse: (value: unknown) => value }).build()).not.toThrow();
  });

  it('names the tool whose input schema is not a schema, and a tool without execute', () => {
    expect(settingOf(() => tool({ name: 'search', description: 'd', input: { q: z.string() } as never, execute: () => 1 }))).toBe('tool:search.input');
    expect(settingOf(() => tool({ name: 'search', description: 'd', input: Type.Object({}) } as never))).toBe('tool:search');
  });
});

describe('numeric options must be finite', () => {
  it.each([
    ['maxSteps', { maxSteps: Number.POSITIVE_INFINITY }],
    ['maxAttempts', { maxAttempts: Number.NaN }],
    ['toolRetries', { toolRetries: -1 }],
    ['maxRetryAfterMs', { maxRetryAfterMs: Number.POSITIVE_INFINITY }],
    ['temperature', { temperature: Number.NaN }],
    ['toolTimeoutMs', { toolTimeoutMs: Number.POSITIVE_INFINITY }],
    ['maxToolResultBytes', { maxToolResultBytes: 1.5 }],
    ['maxRawOutputChars', { maxRawOutputChars: Number.POSITIVE_INFINITY }],
    ['pricing.m.inputPerMTok', { pricing: { m: { inputPerMTok: Number.NaN, outputPerMTok: 1 } } }],
  ] as const)('%s', (setting, options) => {
    expect(settingOf(() => base(options as Partial<AgentOptions>).build())).toBe(setting);
  });

  it('maxFeedbackTokens: Infinity is refused', () => {
    expect(settingOf(() => base().outputSchema(Type.Object({}), { maxFeedbackTokens: Number.POSITIVE_INFINITY }).build())).toBe('outputSchema.maxFeedbackTokens');
  });
});
