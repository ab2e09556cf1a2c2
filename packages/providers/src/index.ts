export { anthropic } from './anthropic/anthropic-provider';
export type { AnthropicProviderOptions } from './anthropic/anthropic-provider';
export { openai } from './openai/openai-provider';
export type { OpenAIProviderOptions } from './openai/openai-provider';
export { ProviderError } from './errors/provider-error';
export type { ProviderErrorKind, ProviderErrorOptions } from './errors/provider-error';
