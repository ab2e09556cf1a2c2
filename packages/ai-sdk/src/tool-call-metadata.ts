import type { SharedV3ProviderMetadata } from '@ai-sdk/provider';

/** Tool calls whose provider metadata is remembered at most, per provider; the oldest is dropped first. */
export const MAX_REMEMBERED_TOOL_CALLS = 1024;

/**
 * The provider metadata of the tool calls a model made (Gemini's `thoughtSignature`, an OpenAI
 * Responses `itemId`), kept so that the calls are sent back with it as provider options: Gemini 3
 * refuses a conversation whose function calls lost their thought signature. Keel's messages have
 * no field for it, so the adapter keeps it by call id and name, bounded (least recently used
 * dropped first). A call id reused with another name never receives another call's metadata.
 */
export class ToolCallMetadata {
  readonly #entries = new Map<string, SharedV3ProviderMetadata>();
  readonly #limit: number;

  constructor(limit: number = MAX_REMEMBERED_TOOL_CALLS) {
    this.#limit = limit;
  }

  /** Remembers the metadata of one call. */
  remember(id: string, name: string, metadata: SharedV3ProviderMetadata | undefined): void {
    if (metadata === undefined || metadata === null || typeof metadata !== 'object' || Object.keys(metadata).length === 0) return;
    const key = `${id}\u0000${name}`;
    this.#entries.delete(key);
    this.#entries.set(key, metadata);
    while (this.#entries.size > this.#limit) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** The metadata of a call, when the model made it through this provider. */
  recall(id: string, name: string): SharedV3ProviderMetadata | undefined {
    return this.#entries.get(`${id}\u0000${name}`);
  }

  /** How many calls are remembered. */
  get size(): number {
    return this.#entries.size;
  }
}
