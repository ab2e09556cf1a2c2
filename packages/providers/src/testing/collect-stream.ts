import type { ModelStreamPart } from '@keel/core';

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
