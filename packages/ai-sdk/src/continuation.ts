import { type Message, type ModelRequest, withContinuation } from '@keel/provider';

/** Providers whose API continues a trailing assistant message (prefill): Claude, direct, on Vertex or on Bedrock. */
function takesPrefill(provider: string): boolean {
  return provider === 'anthropic' || provider.startsWith('anthropic.') || provider.startsWith('vertex.anthropic') || provider.startsWith('amazon-bedrock') || provider.startsWith('bedrock');
}

/**
 * The messages of a request that continues a cut answer (`continueFrom`): for Claude (Anthropic,
 * Vertex, Bedrock) the cut text as a trailing assistant message, which the API continues
 * (prefill); for every other provider the cut text, then the instruction to continue exactly where
 * it stopped (core's `withContinuation`).
 */
export function continuationOf(request: Pick<ModelRequest, 'messages' | 'continueFrom'>, provider: string): readonly Message[] {
  return withContinuation(request.messages, request.continueFrom, { prefill: takesPrefill(provider) });
}
