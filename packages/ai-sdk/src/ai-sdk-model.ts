/**
 * An AI SDK language model, named by the members the adapter uses: any `LanguageModelV3` of
 * `@ai-sdk/provider` fits (and a model of another spec version, which `fromAISDK` refuses with a
 * message). Declared here rather than imported so that Keel's public types compile in a project
 * that checks library types (`skipLibCheck: false`) without `@types/json-schema`, which the spec's
 * own types need.
 */
export interface AISDKLanguageModel {
  /** `v3` for the AI SDK 6 provider packages, the one version the adapter speaks. */
  readonly specificationVersion: string;
  /** The provider id, e.g. `google.generative-ai`. */
  readonly provider: string;
  /** The model id, e.g. `gemini-2.5-flash`. */
  readonly modelId: string;
  /** The spec's `doGenerate`. */
  doGenerate(options: never): PromiseLike<unknown>;
  /** The spec's `doStream`. */
  doStream(options: never): PromiseLike<unknown>;
}

/**
 * What `fromAISDK` takes: one language model (`google('gemini-2.5-flash')`), or a provider
 * (`google`, `createGoogleGenerativeAI({ ... })`, anything with `languageModel(id)`) whose model is
 * picked by the agent's `model` id.
 */
export type AISDKModelSource = AISDKLanguageModel | { languageModel(modelId: string): AISDKLanguageModel } | ((modelId: string) => AISDKLanguageModel);

/** Provider options, keyed by provider (`{ google: { ... } }`), as the spec's `SharedV3ProviderOptions`. */
export type AISDKProviderOptions = Readonly<Record<string, Readonly<Record<string, unknown>>>>;
