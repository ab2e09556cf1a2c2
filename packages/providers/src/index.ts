export { anthropic, type AnthropicClient, type AnthropicProviderOptions } from './anthropic/index';
export { MissingSdkError, type MissingSdkErrorOptions } from './errors/missing-sdk-error';
export { ProviderError, type ProviderErrorKind, type ProviderErrorOptions, type SchemaRejection } from './errors/provider-error';
export { openai, type OpenAIClient, type OpenAIProviderOptions } from './openai/index';
