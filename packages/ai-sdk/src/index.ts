export { fromAISDK, type FromAISDKOptions } from './from-ai-sdk';
export type { AISDKLanguageModel, AISDKModelSource, AISDKProviderOptions } from './ai-sdk-model';
// The one provider error of every Keel adapter (was AiSdkProviderError), re-exported from @keel/provider.
export { ProviderError, type ProviderErrorCause, type ProviderErrorKind, type ProviderErrorOptions } from '@keel/provider';
