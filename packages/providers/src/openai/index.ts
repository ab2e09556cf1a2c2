export { openai, type OpenAIClient, type OpenAIProviderOptions } from './openai-provider';
