import { type LoweredSchema, type ModelRequest, type ModelResponse, ProviderError, type ToolSpecification } from '@keel/provider';
import { orderSchema, transferSchema } from './fixtures/schemas';

type Json = Record<string, unknown>;
type Lower = (schema: Json, purpose: 'output' | 'tool') => LoweredSchema | undefined;

/** What both adapters' native-output tests send and expect, lowered with the adapter's own `lower`. */
export function nativeOutputFixture(model: string, lower: Lower) {
  const lowered = (schema: Json, purpose: 'output' | 'tool') => {
    const result = lower(schema, purpose);
    if (result === undefined) throw new Error('the fixture must lower');
    return result.schema;
  };
  /** What core sends for native output: the lowered schema, strict. */
  const nativeOrder: ModelRequest = {
    model,
    messages: [{ role: 'user', content: 'Ada (ada@example.com) ordered two ABC-12 at 9.99, paid by card 4242.' }],
    responseFormat: { type: 'json', name: 'order', schema: lowered(orderSchema, 'output'), strict: true },
  };
  const strictTransfer: ToolSpecification = { name: 'transfer', description: 'Move money between accounts.', inputSchema: lowered(transferSchema, 'tool'), strict: true };
  return { lowered, nativeOrder, strictTransfer };
}

/** The order the model means in the fixture's message. */
export const intendedOrder = {
  id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  customer: { name: 'Ada', email: 'ada@example.com', loyalty: 'gold' },
  lines: [{ sku: 'ABC-12', quantity: 2, unitPrice: 9.99 }],
  payment: { kind: 'card', last4: '4242' },
  status: 'open',
};

/** The `ProviderError` a call rejects with (anything else fails the test). */
export async function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  const error: unknown = await promise.then(() => undefined, (thrown: unknown) => thrown);
  if (!ProviderError.isInstance(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

/**
 * `request` one turn on: the model's tool-call turn (`response`) and the result `output` of its
 * first tool call.
 */
export function afterToolCall(request: ModelRequest, response: ModelResponse, output: string): ModelRequest {
  const call = response.content.find((part) => part.type === 'tool-call');
  if (call?.type !== 'tool-call') throw new Error('the response calls no tool');
  return {
    ...request,
    messages: [...request.messages, { role: 'assistant', content: response.content }, { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.id, toolName: call.name, output, isError: false }] }],
  };
}
