export { fromAISDK, type AISDKModelSource, type FromAISDKOptions } from './from-ai-sdk';
export { AiSdkProviderError, type AiSdkErrorCause, type AiSdkErrorKind, type AiSdkProviderErrorOptions } from './ai-sdk-provider-error';
