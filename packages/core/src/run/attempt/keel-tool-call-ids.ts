import type { ModelResponse } from '@keel/provider';

/**
 * Keel's ids for the tool calls of one turn, given in the order the calls come: the provider's id
 * when it names no call the run keeps, otherwise (a provider that repeats ids across turns, or
 * sends none) Keel's own `tc_<n>`, unused in the conversation. So ids are unique within the
 * conversation, and idempotency keys, compaction, approvals and records never take two calls for
 * one. (Two calls of one turn with one provider id stay as they are: the turn is a bad response.)
 */
export class KeelToolCallIds {
  readonly #kept: ReadonlySet<string>;
  readonly #assigned = new Set<string>();
  /** The provider's ids the turn kept: Keel's own never take one (a provider may send `tc_<n>` too). */
  readonly #passed = new Set<string>();
  #next: number;

  /** @param kept the ids of the tool calls the run keeps (memory's conversation included). */
  constructor(kept: ReadonlySet<string>) {
    this.#kept = kept;
    this.#next = kept.size + 1;
  }

  /** The id of the turn's next call, whose provider id is `given`. */
  idFor(given: string): string {
    if (given.length > 0 && !this.#kept.has(given) && !this.#assigned.has(given)) {
      this.#passed.add(given);
      return given;
    }
    let id = `tc_${this.#next++}`;
    while (this.#kept.has(id) || this.#assigned.has(id) || this.#passed.has(id)) id = `tc_${this.#next++}`;
    this.#assigned.add(id);
    return id;
  }
}

/** The response with Keel's ids on its tool calls (see {@link KeelToolCallIds}); a call whose id changed keeps the provider's as `providerId`. */
export function withKeelToolCallIds(response: ModelResponse, kept: ReadonlySet<string>): ModelResponse {
  const ids = new KeelToolCallIds(kept);
  let changed = false;
  const content = response.content.map((part) => {
    if (part.type !== 'tool-call') return part;
    const id = ids.idFor(part.id);
    if (id === part.id) return part;
    changed = true;
    return { ...part, id, providerId: part.providerId ?? part.id };
  });
  return changed ? { ...response, content } : response;
}
