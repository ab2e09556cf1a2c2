export { anthropic, type AnthropicClient, type AnthropicProviderOptions } from './anthropic-provider';
