import type { SharedV3ProviderOptions } from '@ai-sdk/provider';

/**
 * The provider options that place a prompt-cache breakpoint, for the provider packages whose
 * models take one, by the model's provider id:
 * - `anthropic.*` (`@ai-sdk/anthropic`, and Claude through `@ai-sdk/google-vertex/anthropic`):
 *   `cacheControl: { type: 'ephemeral' }` under `anthropic`;
 * - `amazon-bedrock` / `bedrock`: `cachePoint: { type: 'default' }` under `bedrock`.
 * Other providers cache without hints (Gemini 2.5+ and OpenAI cache long prefixes on their own
 * and report the tokens read, which Keel counts as `cacheReadTokens`): `undefined`.
 */
export function cacheBreakpointOf(provider: string): SharedV3ProviderOptions | undefined {
  if (provider === 'anthropic' || provider.startsWith('anthropic.') || provider.startsWith('vertex.anthropic')) {
    return { anthropic: { cacheControl: { type: 'ephemeral' } } };
  }
  if (provider === 'amazon-bedrock' || provider.startsWith('amazon-bedrock') || provider.startsWith('bedrock')) {
    return { bedrock: { cachePoint: { type: 'default' } } };
  }
  return undefined;
}

/** True when a breakpoint can also go on a tool definition (Anthropic's tools precede the messages in the cached prefix). */
export function cachesToolDefinitions(provider: string): boolean {
  return provider === 'anthropic' || provider.startsWith('anthropic.') || provider.startsWith('vertex.anthropic');
}
