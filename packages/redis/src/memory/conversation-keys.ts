import { createHash } from 'node:crypto';

/** The Redis keys of one conversation; all four share one hash tag, so one cluster slot. */
export interface ConversationKeys {
  /** List of exchange ids, oldest first. */
  readonly order: string;
  /** Hash: exchange id → JSON array of the exchange's messages. */
  readonly exchanges: string;
  /** `"<token> <run id>"` of the run that holds the conversation, with a PX TTL. */
  readonly lease: string;
  /** Counter handing out lease (fencing) tokens. */
  readonly fence: string;
}

/** Longest conversation id used as it is in keys; longer ones are hashed. */
const MAX_RAW_ID = 200;

/**
 * The hash tag of a conversation: the id itself when it is safe as a Redis Cluster hash tag
 * (not empty, no braces, at most 200 characters, not starting with `#`), else `#` and the id's
 * SHA-256. The two forms cannot meet (only hashed tags start with `#`), so two ids never share
 * keys, and every id, `''` and `'}support'` included, gives a non-empty tag without braces: the
 * conversation's keys land in one slot.
 */
export function conversationTag(conversationId: string): string {
  const safe = conversationId !== '' && conversationId.length <= MAX_RAW_ID && !/[{}]/.test(conversationId) && !conversationId.startsWith('#');
  return safe ? conversationId : `#${createHash('sha256').update(conversationId, 'utf8').digest('hex')}`;
}

/**
 * A key prefix as given, ending in `:` (added when missing: `support` gives `support:memory:{…}`);
 * refuses braces, which would make a Redis Cluster hash tag of their own.
 */
export function normalizePrefix(prefix: string, owner: string): string {
  if (typeof prefix !== 'string') throw new TypeError(`${owner}: the prefix must be a string`);
  if (prefix.includes('{') || prefix.includes('}')) throw new TypeError(`${owner}: the prefix must not contain braces (they make Redis Cluster hash tags)`);
  return prefix === '' || prefix.endsWith(':') ? prefix : `${prefix}:`;
}

/** The keys of `conversationId` under `prefix` (already normalised). */
export function conversationKeys(prefix: string, conversationId: string): ConversationKeys {
  const base = `${prefix}memory:{${conversationTag(conversationId)}}`;
  return { order: `${base}:order`, exchanges: `${base}:exchanges`, lease: `${base}:lease`, fence: `${base}:fence` };
}

/** A conversation's keys in the order the load and append scripts take them (`KEYS[1..4]`). */
export function scriptKeys(keys: ConversationKeys): string[] {
  return [keys.order, keys.exchanges, keys.lease, keys.fence];
}
