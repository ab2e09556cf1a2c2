export { anthropic, type AnthropicProviderOptions } from './anthropic-provider';
