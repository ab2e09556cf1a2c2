/**
 * A UI message as the AI SDK 6 `useChat` sends it (the `ai` package's `UIMessage`), declared by
 * the fields Keel reads so that `@keel/core` needs no `ai` at run time: an `ai` `UIMessage[]` is
 * assignable to `readonly UIMessageLike[]`. Each part is read by its `type` and checked field by
 * field: a part Keel does not know is left out.
 */
export interface UIMessageLike {
  readonly id: string;
  readonly role: 'system' | 'user' | 'assistant';
  readonly parts: readonly { readonly type: string }[];
}

/** A part's field, read without trusting its shape (the body of a request is the client's). */
export function field(part: object, name: string): unknown {
  return (part as Record<string, unknown>)[name];
}

/** A part's string field, or `undefined`. */
export function text(part: object, name: string): string | undefined {
  const value = field(part, name);
  return typeof value === 'string' ? value : undefined;
}
