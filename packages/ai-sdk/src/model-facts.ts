import type { LanguageModelV3 } from '@ai-sdk/provider';
import { errorMessageOf, type ModelCapabilities } from '@keel/provider';
import { knownCapabilities } from './capabilities';

/** What {@link modelFacts} reads: the wrapped model or the resolver, and the options that declare. */
export interface ModelFactsSource {
  /** The one model wrapped, when a model (not a provider) was given. */
  readonly single: LanguageModelV3 | undefined;
  /** The model of an id (throws when the provider cannot make it). */
  readonly resolve: (modelId: string) => LanguageModelV3;
  readonly capabilities: ModelCapabilities | ((modelId: string) => ModelCapabilities) | undefined;
  readonly contextWindow: number | ((modelId: string) => number | undefined) | undefined;
  /** Told the provider id of each model resolved. */
  readonly onResolved: (provider: string) => void;
}

/** A context window a model can have: a whole number of tokens, at least 1. */
function isContextWindow(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/**
 * What `fromAISDK` says about a model id without calling it: its capabilities (declared, else what
 * the adapter knows of the provider package, with the declared context window), and what is
 * wrong with using it (`checkModel`: an id the wrapped model does not have, or one the provider
 * cannot make). A context window that is not a whole number >= 1 is refused at once.
 * @throws {TypeError} for a `contextWindow` number that is not a whole number of tokens >= 1.
 */
export function modelFacts(source: ModelFactsSource) {
  if (typeof source.contextWindow === 'number' && !isContextWindow(source.contextWindow)) {
    throw new TypeError(`fromAISDK({ contextWindow }) must be a whole number of tokens >= 1, got ${String(source.contextWindow)}`);
  }
  const declaredOrKnown = (modelId: string): ModelCapabilities => {
    const declared = source.capabilities;
    if (declared !== undefined) return typeof declared === 'function' ? declared(modelId) : declared;
    try {
      const provider = source.resolve(modelId).provider;
      source.onResolved(provider);
      return knownCapabilities(provider);
    } catch {
      return {};
    }
  };
  const contextWindowOf = (modelId: string): number | undefined => {
    const window = typeof source.contextWindow === 'function' ? source.contextWindow(modelId) : source.contextWindow;
    return isContextWindow(window) ? window : undefined;
  };
  return {
    capabilities(modelId: string): ModelCapabilities {
      const window = contextWindowOf(modelId);
      return window === undefined ? declaredOrKnown(modelId) : { ...declaredOrKnown(modelId), contextWindow: window };
    },
    checkModel(modelId: string): string | undefined {
      const { single } = source;
      if (single !== undefined) {
        return modelId === single.modelId ? undefined : `${single.provider}: this provider wraps the AI SDK model ${JSON.stringify(single.modelId)}: set the agent's model to it, or pass the provider (fromAISDK(google)) to pick models by id`;
      }
      try {
        source.resolve(modelId);
        return undefined;
      } catch (error) {
        return `the AI SDK provider cannot make the model ${JSON.stringify(modelId)}: ${errorMessageOf(error)}`;
      }
    },
  };
}
