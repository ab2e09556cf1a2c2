export { fromAISDK, type FromAISDKOptions } from './from-ai-sdk';
export type { AISDKLanguageModel, AISDKModelSource, AISDKProviderOptions } from './ai-sdk-model';
export { AiSdkProviderError, type AiSdkErrorCause, type AiSdkErrorKind, type AiSdkProviderErrorOptions } from './ai-sdk-provider-error';
