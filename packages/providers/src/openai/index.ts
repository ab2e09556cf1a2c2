export { openai, type OpenAIProviderOptions } from './openai-provider';
