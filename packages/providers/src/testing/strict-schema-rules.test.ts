import { describe, expect, it } from 'vitest';
import { constrain, decode, exampleOf } from './constrained-decoder';
import { anthropicStrictProblem } from './validate-anthropic-request';
import { openAIStrictProblem } from './validate-openai-request';

const closed = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: 'object', properties, required, additionalProperties: false });
const anthropicBody = (extra: Record<string, unknown>) => ({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }], ...extra });
const openAIBody = (extra: Record<string, unknown>) => ({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }], ...extra });

describe("the local Messages API server's structured-output rules", () => {
  it('accepts a closed schema of supported keywords, in the output format and on strict tools', () => {
    const schema = closed({ a: { type: 'string', format: 'date' }, b: { type: 'array', items: { type: 'integer' }, minItems: 1 } }, ['a']);
    expect(anthropicStrictProblem(anthropicBody({ output_config: { format: { type: 'json_schema', schema } }, tools: [{ name: 't', input_schema: schema, strict: true }] }))).toBeUndefined();
  });

  it.each([
    [{ output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {} } } } }, "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false"],
    [{ tools: [{ name: 't', strict: true, input_schema: closed({ n: { type: 'integer', minimum: 1 } }) }] }, "tools.0.custom: For 'integer' type, property 'minimum' is not supported"],
    [{ tools: [{ name: 't', strict: true, input_schema: closed({ n: { type: 'string', minLength: 1, maxLength: 2 } }) }] }, "tools.0.custom: For 'string' type, properties minLength, maxLength are not supported"],
    [{ output_config: { format: { type: 'json_schema', schema: closed({ n: { type: 'array', items: { type: 'string' }, minItems: 2 } }) } } }, "output_config.format.schema: For 'array' type, 'minItems' values other than 0 or 1 are not supported"],
    [{ output_config: { format: { type: 'json_schema', schema: { ...closed({ n: { $ref: '#/$defs/n' } }, []), $defs: { n: closed({ m: { $ref: '#/$defs/n' } }, []) } } } } }, 'output_config.format.schema: Recursive schemas are not supported'],
    [{ output_config: { format: { type: 'json_schema', schema: closed({ n: { enum: ['a'] } }) } } }, "output_config.format.schema: Schema must have a 'type', 'anyOf', 'oneOf', or 'allOf' field"],
    [{ output_config: { format: { type: 'json_schema', schema: closed({ n: { type: 'string', enum: ['a'] } }) } } }, undefined],
    [{ output_config: { format: { type: 'json_schema', schema: closed({ n: { description: 'anything' } }) } } }, "output_config.format.schema: Schema must have a 'type', 'anyOf', 'oneOf', or 'allOf' field"],
    [{ tools: Array.from({ length: 21 }, (_, index) => ({ name: `t${index}`, strict: true, input_schema: closed({}) })) }, 'Too many strict tools (21). The maximum number of strict tools supported is 20.'],
  ])('%j → %s', (extra, expected) => {
    expect(anthropicStrictProblem(anthropicBody(extra))).toBe(expected);
  });

  it('counts optional properties and unions over every strict schema of the request', () => {
    const optional = (count: number) => closed(Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' }])), []);
    expect(anthropicStrictProblem(anthropicBody({ output_config: { format: { type: 'json_schema', schema: optional(12) } }, tools: [{ name: 't', strict: true, input_schema: optional(12) }] }))).toBeUndefined();
    expect(anthropicStrictProblem(anthropicBody({ output_config: { format: { type: 'json_schema', schema: optional(12) } }, tools: [{ name: 't', strict: true, input_schema: optional(13) }] }))).toMatch(/^Schemas contains too many optional parameters \(25\)/);
    // A tool that is not strict does not count.
    expect(anthropicStrictProblem(anthropicBody({ output_config: { format: { type: 'json_schema', schema: optional(24) } }, tools: [{ name: 't', input_schema: optional(30) }] }))).toBeUndefined();
  });
});

describe("the local Chat Completions server's strict-mode rules", () => {
  it.each([
    [{ response_format: { type: 'json_schema', json_schema: { name: 'a', strict: true, schema: closed({ x: { type: 'string' } }) } } }, undefined],
    [{ response_format: { type: 'json_schema', json_schema: { name: 'a', strict: false, schema: { type: 'object' } } } }, undefined],
    [{ response_format: { type: 'json_schema', json_schema: { name: 'a b', strict: true, schema: closed({}) } } }, 'response_format.json_schema.name'],
    [{ response_format: { type: 'json_schema', json_schema: { name: 'a', strict: true, schema: { type: 'array', items: { type: 'string' } } } } }, 'response_format'],
    [{ response_format: { type: 'json_schema', json_schema: { name: 'a', strict: true, schema: closed({ x: { type: 'string' }, y: { type: 'string' } }, ['x']) } } }, 'response_format'],
    [{ tools: [{ type: 'function', function: { name: 'f', strict: true, parameters: closed({ x: { type: 'string', maxLength: 3 } }) } }] }, 'tools[0].function.parameters'],
  ])('%j → param %s', (extra, param) => {
    expect(openAIStrictProblem(openAIBody(extra))?.param).toBe(param);
  });

  it("writes OpenAI's messages, with the context as a Python tuple", () => {
    const problem = openAIStrictProblem(openAIBody({ tools: [{ type: 'function', function: { name: 'f', strict: true, parameters: closed({ inner: { type: 'object', properties: { x: { type: 'string' } } } }) } }] }));
    expect(problem).toEqual({
      message: "Invalid schema for function 'f': In context=('properties', 'inner'), 'additionalProperties' is required to be supplied and to be false.",
      type: 'invalid_request_error',
      param: 'tools[0].function.parameters',
      code: 'invalid_function_parameters',
    });
  });
});

describe('the simulated constrained decoder', () => {
  const schema = { ...closed({ n: { type: 'integer', minimum: 1, maximum: 9 }, tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2 }, note: { type: ['string', 'null'] }, kind: { enum: ['a', 'b'] } }), $defs: {} };

  it('writes only what the schema allows, closest to what the model aimed at', () => {
    expect(constrain({ n: 42, tags: ['x', 'y', 'z'], extra: true, kind: 'c' }, schema, schema)).toEqual({ n: 9, tags: ['x', 'y'], note: null, kind: 'a' });
    expect(decode({ n: 0, tags: [] }, schema)).toEqual({ n: 1, tags: ['x'], note: null, kind: 'a' });
    expect(exampleOf(schema, schema)).toEqual({ n: 1, tags: ['x'], note: 'x', kind: 'a' });
  });

  it('fails visibly when no decoder could write the value (a string breaking its pattern)', () => {
    const patterned = closed({ code: { type: 'string', pattern: '^[0-9]{4}$' } });
    expect(() => decode({ code: 'abcd' }, patterned)).toThrow(/no decoder would write it/);
  });
});
