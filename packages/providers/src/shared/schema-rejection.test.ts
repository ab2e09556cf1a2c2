import { describe, expect, it } from 'vitest';
import { anthropicSchemaRejection } from '../anthropic/anthropic-schema-rejection';
import { openAISchemaRejection } from '../openai/openai-schema-rejection';
import { ProviderError } from '@keel/provider';
import { mapSdkError } from './map-sdk-error';

class Never {}
const classes = { userAbort: Never, connectionTimeout: Never, connection: Never };
const outputAndTool = { output: true, strictTools: [1] };

/** An Anthropic SDK error as the SDK builds it from a 400 body. */
const anthropicError = (message: string) => ({ status: 400, type: 'invalid_request_error', apiMessage: message, error: { type: 'error', error: { type: 'invalid_request_error', message } }, message: `400 ${message}` });
/** An OpenAI SDK error as the SDK builds it from a 400 body. */
const openAIError = (fields: { message: string; param: string | null; code: string | null }) => ({ status: 400, ...fields, type: 'invalid_request_error', error: { ...fields, type: 'invalid_request_error' } });

describe('anthropicSchemaRejection', () => {
  it.each([
    ["output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false", outputAndTool, 'output'],
    ["tools.1.custom: For 'integer' type, property 'minimum' is not supported", outputAndTool, 'tool'],
    ["tools.0.custom: For 'integer' type, property 'minimum' is not supported", outputAndTool, undefined],
    ['tools.1.custom.name: String should match pattern', outputAndTool, undefined],
    ['Schemas contains too many optional parameters (30), which would make grammar compilation inefficient.', outputAndTool, 'both'],
    ['Schema is too complex for compilation', { output: true, strictTools: [] }, 'output'],
    ['Schemas contains too many parameters with union types (20 parameters with type arrays or anyOf).', { output: false, strictTools: [0] }, 'tool'],
    ['Schemas contains too many optional parameters (30)', { output: false, strictTools: [] }, undefined],
    ["output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false", { output: false, strictTools: [1] }, undefined],
    ['prompt is too long: 250000 tokens > 200000 maximum', outputAndTool, undefined],
  ] as const)('%s (sent %j) → %s', (message, sent, expected) => {
    expect(anthropicSchemaRejection(anthropicError(message), sent)).toBe(expected);
  });

  it('reads the message from the body when the SDK gives no apiMessage, and ignores other error types', () => {
    expect(anthropicSchemaRejection({ error: { error: { type: 'invalid_request_error', message: 'output_config.format.schema: Recursive schemas are not supported' } } }, outputAndTool)).toBe('output');
    expect(anthropicSchemaRejection({ type: 'api_error', apiMessage: 'output_config.format.schema: boom' }, outputAndTool)).toBeUndefined();
  });
});

describe('openAISchemaRejection', () => {
  it.each([
    [{ message: "Invalid schema for response_format 'order': In context=(), 'additionalProperties' is required to be supplied and to be false.", param: 'response_format', code: null }, outputAndTool, 'output'],
    [{ message: "Invalid schema for function 'f': In context=(), 'minLength' is not permitted.", param: 'tools[1].function.parameters', code: 'invalid_function_parameters' }, outputAndTool, 'tool'],
    [{ message: "Invalid schema for function 'g': …", param: 'tools[0].function.parameters', code: 'invalid_function_parameters' }, outputAndTool, undefined],
    [{ message: "Invalid schema for function 'f': …", param: null, code: 'invalid_function_parameters' }, outputAndTool, 'tool'],
    [{ message: "Invalid schema for response_format 'order': …", param: 'response_format', code: null }, { output: false, strictTools: [1] }, undefined],
    [{ message: "Invalid 'messages[0].content': string too long.", param: 'messages[0].content', code: 'string_above_max_length' }, outputAndTool, undefined],
  ] as const)('%j (sent %j) → %s', (fields, sent, expected) => {
    expect(openAISchemaRejection(openAIError(fields), sent)).toBe(expected);
  });
});

describe('mapSdkError with a schema rejection reader', () => {
  it('sets schemaRejected on a 400 only; a reader that throws reads as none', () => {
    const error = anthropicError("output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false");
    const context = { provider: 'anthropic', label: 'Anthropic', classes };
    expect(mapSdkError(error, { ...context, schemaRejection: (thrown) => anthropicSchemaRejection(thrown, outputAndTool) }).schemaRejected).toBe('output');
    expect(mapSdkError({ ...error, status: 422 }, { ...context, schemaRejection: () => 'output' }).schemaRejected).toBeUndefined();
    const thrown = mapSdkError(error, { ...context, schemaRejection: () => { throw new Error('reader bug'); } });
    expect([thrown.errorKind, thrown.schemaRejected]).toEqual(['bad-request', undefined]);
  });

  it('keeps schemaRejected when an error is redacted again', () => {
    const original = new ProviderError({ message: 'refused sk-ant-secret-key-123', errorKind: 'bad-request', status: 400, provider: 'anthropic', schemaRejected: 'tool' });
    const redacted = mapSdkError(original, { provider: 'anthropic', label: 'Anthropic', classes, secrets: ['sk-ant-secret-key-123'] });
    expect(redacted).not.toBe(original);
    expect([redacted.message, redacted.schemaRejected]).toEqual(['refused [redacted]', 'tool']);
  });
});
