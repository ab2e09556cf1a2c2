import type { ModelProvider, ModelRequest, ModelResponse, ModelStreamPart } from '@keel/provider';

/** Reads a provider stream to the end (or its error) and returns every part. */
export async function collectStream(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Reads a provider stream and returns the parts seen before it threw, and what it threw. */
export async function collectStreamFailure(stream: AsyncIterable<ModelStreamPart>): Promise<{ parts: ModelStreamPart[]; error: unknown }> {
  const parts: ModelStreamPart[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    return { parts, error };
  }
  throw new Error(`The stream ended without an error after ${parts.length} parts`);
}

/**
 * The response of one call: `generate`, or with `streaming` the response of the stream's
 * `finish` part.
 */
export async function responseOf(provider: ModelProvider, request: ModelRequest, streaming: boolean): Promise<ModelResponse> {
  if (!streaming) return provider.generate(request, {});
  if (!provider.stream) throw new Error('the provider does not stream');
  const finish = (await collectStream(provider.stream(request, {}))).at(-1);
  if (finish?.type !== 'finish') throw new Error('no finish part');
  return finish.response;
}
