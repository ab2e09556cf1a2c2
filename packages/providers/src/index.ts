export { anthropic, type AnthropicClient, type AnthropicProviderOptions } from './anthropic/index';
export { MissingSdkError, type MissingSdkErrorOptions } from './errors/missing-sdk-error';
// The one provider error of every Keel adapter, re-exported from @keel/provider.
export { ProviderError, type ProviderErrorCause, type ProviderErrorKind, type ProviderErrorOptions, type SchemaRejection } from '@keel/provider';
export { openai, type OpenAIClient, type OpenAIProviderOptions } from './openai/index';
