import { describe, expect, it } from 'vitest';
import { schemaRejectionFor, strictPartsOf } from './strict-parts';

const schema = { type: 'object', properties: {} };
const tool = (strict?: boolean) => ({ name: 't', description: 'd', inputSchema: schema, ...(strict === undefined ? {} : { strict }) });

describe('strictPartsOf', () => {
  it('names the strict output format and the positions of strict tools, as sent', () => {
    expect(strictPartsOf({ responseFormat: { type: 'json', schema, strict: true }, tools: [tool(), tool(true), tool(false), tool(true)] })).toEqual({ output: true, strictTools: [1, 3] });
    expect(strictPartsOf({ responseFormat: { type: 'json', strict: true } })).toEqual({ output: false, strictTools: [] });
    expect(strictPartsOf({ responseFormat: { type: 'json', schema } })).toEqual({ output: false, strictTools: [] });
  });
});

describe('schemaRejectionFor', () => {
  const both = { output: true, strictTools: [1] };
  it.each([
    [both, { output: true }, 'output'],
    [both, { tool: 1 }, 'tool'],
    [both, { tool: 0 }, undefined],
    [both, { tool: true }, 'tool'],
    [both, { output: true, tool: true }, 'both'],
    [both, { requestWide: true }, 'both'],
    [{ output: true, strictTools: [] }, { requestWide: true }, 'output'],
    [{ output: false, strictTools: [2] }, { requestWide: true }, 'tool'],
    [{ output: false, strictTools: [] }, { requestWide: true }, undefined],
    [{ output: false, strictTools: [1] }, { output: true }, undefined],
    [both, {}, undefined],
    [both, { tool: 0, requestWide: true }, undefined],
  ] as const)('sent %j, named %j → %s', (sent, named, expected) => {
    expect(schemaRejectionFor(sent, named)).toBe(expected);
  });
});
