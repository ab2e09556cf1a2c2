/*
 * The statements of a memory store on schema `s` (already quoted). A conversation is a row of
 * `conversations` (its fencing counter, the lease a run holds on it, when it expires) and its
 * exchanges rows of `exchanges`, one per exchange id (a run id), in the order they were first
 * stored. A run's lease is its token: the counter's value when it took the conversation; taking it
 * raises the counter, so an append under an older token is refused. A new conversation's counter
 * starts at the server's clock in milliseconds, so a conversation swept after it expired never
 * hands out an old token again.
 */

/** The server's clock, in milliseconds since the epoch. */
const NOW_MS = `floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/**
 * $1 conversation, $2 run, $3 lease ms. Takes the lease when nobody holds a live one (or run $2
 * already does: a job run again after its worker died): `token` is the new token, or null when
 * another run holds it, and `left_ms` how long its lease still runs.
 */
export const takeLeaseSql = (s: string) => `
WITH taken AS (
  INSERT INTO ${s}.conversations AS c (conversation_id, fence, lease_token, lease_run, lease_expires_at)
  SELECT $1, now.ms, now.ms, $2, clock_timestamp() + $3::bigint * interval '1 millisecond'
  FROM (SELECT ${NOW_MS} AS ms) AS now
  ON CONFLICT (conversation_id) DO UPDATE SET fence = c.fence + 1, lease_token = c.fence + 1, lease_run = $2, lease_expires_at = EXCLUDED.lease_expires_at
  WHERE c.lease_token IS NULL OR c.lease_expires_at <= clock_timestamp() OR c.lease_run = $2
  RETURNING lease_token
)
SELECT (SELECT lease_token FROM taken) AS token,
  (SELECT ceil(GREATEST(0, extract(epoch FROM lease_expires_at - clock_timestamp()) * 1000))::bigint FROM ${s}.conversations WHERE conversation_id = $1) AS left_ms`;

/** $1 conversation, $2 exchange left out (a run's own, or null). The exchanges' messages, oldest first; none once the conversation expired. */
export const readSql = (s: string) => `
SELECT e.messages FROM ${s}.exchanges AS e JOIN ${s}.conversations AS c USING (conversation_id)
WHERE e.conversation_id = $1 AND e.exchange_id IS DISTINCT FROM $2 AND (c.expires_at IS NULL OR c.expires_at > clock_timestamp())
ORDER BY e.position`;

/**
 * $1 conversation, $2 exchange id, $3 messages (JSON text), $4 the holder's token (null without a
 * lease), $5 time to live in ms (null: for ever). Stores the exchange (a known id is replaced in
 * place) and lets the holder's lease go, in one statement, unless another run took the
 * conversation since the token was handed out: `stored` is 1, or 0 (nothing written). The
 * exchanges of a conversation that had expired are dropped first.
 */
export const appendSql = (s: string) => `
WITH owner AS (
  INSERT INTO ${s}.conversations AS c (conversation_id, fence, expires_at)
  SELECT $1, ${NOW_MS}, clock_timestamp() + $5::bigint * interval '1 millisecond'
  ON CONFLICT (conversation_id) DO UPDATE SET
    expires_at = EXCLUDED.expires_at,
    lease_run = CASE WHEN c.lease_token = $4 THEN NULL ELSE c.lease_run END,
    lease_expires_at = CASE WHEN c.lease_token = $4 THEN NULL ELSE c.lease_expires_at END,
    lease_token = CASE WHEN c.lease_token = $4 THEN NULL ELSE c.lease_token END
  WHERE $4::bigint IS NULL OR c.fence = $4
  RETURNING conversation_id
), expired AS (
  DELETE FROM ${s}.exchanges AS e USING ${s}.conversations AS c
  WHERE e.conversation_id = $1 AND c.conversation_id = $1 AND c.expires_at <= clock_timestamp() AND e.exchange_id <> $2
    AND EXISTS (SELECT 1 FROM owner)
), stored AS (
  INSERT INTO ${s}.exchanges AS e (conversation_id, exchange_id, messages)
  SELECT $1, $2, $3 FROM owner
  ON CONFLICT (conversation_id, exchange_id) DO UPDATE SET messages = EXCLUDED.messages
)
SELECT count(*)::integer AS stored FROM owner`;

/**
 * $1 conversation, $2 token, $3 run, $4 lease ms. Extends the lease while the token still holds it
 * (nobody took the conversation since, and the holder did not let it go: a renewal that lands
 * after the holder's append or release takes nothing again): one row, or none.
 */
export const renewSql = (s: string) => `
UPDATE ${s}.conversations SET lease_run = $3, lease_expires_at = clock_timestamp() + $4::bigint * interval '1 millisecond'
WHERE conversation_id = $1 AND fence = $2 AND lease_token = $2
RETURNING 1 AS renewed`;

/** $1 conversation, $2 token. Lets the lease go if the token still holds it. */
export const releaseSql = (s: string) => `
UPDATE ${s}.conversations SET lease_token = NULL, lease_run = NULL, lease_expires_at = NULL
WHERE conversation_id = $1 AND lease_token = $2`;

/**
 * $1 grace in ms. Deletes conversations (their exchanges with them) expired for longer than the
 * grace and held by no live lease, a few at a time.
 */
export const sweepSql = (s: string) => `
DELETE FROM ${s}.conversations WHERE conversation_id IN (
  SELECT conversation_id FROM ${s}.conversations
  WHERE expires_at <= clock_timestamp() - $1::bigint * interval '1 millisecond'
    AND (lease_expires_at IS NULL OR lease_expires_at <= clock_timestamp())
  LIMIT 1000 FOR UPDATE SKIP LOCKED
)`;
