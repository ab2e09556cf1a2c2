import { createHash } from 'node:crypto';

/** A lone UTF-16 surrogate: text PostgreSQL cannot hold as it is. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * How an id (a run id, a claim key, a conversation id) is kept in a `text` column: as it is when
 * PostgreSQL can hold it exactly (no NUL character, no lone surrogate) and it does not start with
 * `#`, else `#` and the SHA-256 of its JSON text. The two forms cannot meet (only hashed ids start
 * with `#`), so two ids never share rows.
 */
export function storedKey(id: string): string {
  const exact = !id.includes('\u0000') && !LONE_SURROGATE.test(id) && !id.startsWith('#');
  return exact ? id : `#${createHash('sha256').update(JSON.stringify(id), 'utf8').digest('hex')}`;
}
