import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { fromAISDK } from './from-ai-sdk';
import { lowerGeminiSchema } from './lower-gemini-schema';
import { geminiText } from './testing/gemini-fixtures';
import { jsonReply, wireServersPerTest } from '@keel/wire-server';

const startServer = wireServersPerTest();

const Order = Type.Object(
  {
    id: Type.String({ pattern: '^A-\\d+$', minLength: 3, maxLength: 12 }),
    amount: Type.Number({ minimum: 0 }),
    status: Type.Union([Type.Literal('paid'), Type.Literal('refunded')]),
    tags: Type.Array(Type.String(), { maxItems: 3 }),
    note: Type.Optional(Type.String({ title: 'Note' })),
  },
  { additionalProperties: false },
);

describe('lowerGeminiSchema', () => {
  it('keeps what Gemini enforces and names every constraint it drops', () => {
    const lowered = lowerGeminiSchema(Order as never);
    expect(lowered?.changes).toEqual([
      'removed additionalProperties at /',
      'removed pattern at /properties/id',
      'removed maxLength at /properties/id',
      'removed minimum at /properties/amount',
      'removed maxItems at /properties/tags',
    ]);
    expect(lowered?.schema).toMatchObject({ type: 'object', required: ['id', 'amount', 'status', 'tags'], properties: { id: { type: 'string', minLength: 3 }, note: { type: 'string' } } });
    expect(JSON.stringify(lowered?.schema)).not.toContain('title');
  });

  it('inlines local references; refuses recursive ones, foreign ones and mixed enums (the package would fail every call)', () => {
    const withDefs = { type: 'object', properties: { a: { $ref: '#/$defs/Amount' } }, $defs: { Amount: { type: 'number', maximum: 10 } } };
    expect(lowerGeminiSchema(withDefs)).toEqual({ schema: { type: 'object', properties: { a: { type: 'number' } } }, changes: ['removed maximum at /properties/a'] });
    expect(lowerGeminiSchema({ type: 'object', properties: { next: { $ref: '#/definitions/Node' } }, definitions: { Node: { type: 'object', properties: { next: { $ref: '#/definitions/Node' } } } } })).toBeUndefined();
    expect(lowerGeminiSchema({ type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } })).toBeUndefined();
    expect(lowerGeminiSchema({ type: 'object', properties: { a: { enum: ['x', 1] } } })).toBeUndefined();
    expect(lowerGeminiSchema({ type: 'object', properties: { a: { enum: ['x', null] } } })?.changes).toEqual([]);
    expect(lowerGeminiSchema({ type: 'object', properties: { a: false } })).toBeUndefined();
  });

  it('what the package sends to Gemini is the same for the lowered schema as for the full one', async () => {
    const wire = await startServer(jsonReply(geminiText('{}')), jsonReply(geminiText('{}')));
    const provider = fromAISDK(createGoogleGenerativeAI({ baseURL: wire.url, apiKey: 'k' })('gemini-2.5-flash'));
    const lowered = provider.lowerSchema?.(Order as never, 'output');
    expect(lowered?.changes.length).toBeGreaterThan(0);
    const ask = (schema: Readonly<Record<string, unknown>>) => provider.generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'order?' }], responseFormat: { type: 'json', schema, strict: true } }, {});
    await ask(Order as never);
    await ask(lowered?.schema ?? {});
    const sent = wire.requests.map((request) => (request.body as { generationConfig: { responseSchema: unknown } }).generationConfig.responseSchema);
    expect(sent[1]).toEqual(sent[0]);
  });

  it('other providers take the schema as it is', () => {
    const provider = fromAISDK(createGoogleGenerativeAI({ apiKey: 'k' })('gemini-2.5-flash'));
    expect(provider.lowerSchema?.({ type: 'string', maxLength: 3 }, 'tool')?.changes).toEqual(['removed maxLength at /']);
  });
});
