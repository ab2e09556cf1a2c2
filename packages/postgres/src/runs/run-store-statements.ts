/*
 * The statements of a run store on schema `s` (already quoted). Each is one statement, so atomic
 * on its own, and each that writes under a fence checks it in the same statement as the write: a
 * row lock taken by the UPDATE, with the condition checked again on the newest row (READ
 * COMMITTED), leaves no window between reading the fence and writing.
 */

/** $1 run id. Makes the caller the run's newest owner: returns its fence. */
export const acquireSql = (s: string) => `
INSERT INTO ${s}.runs AS r (run_id, fence) VALUES ($1, 1)
ON CONFLICT (run_id) DO UPDATE SET fence = r.fence + 1
RETURNING fence`;

/** $1 run id. The newest owner of a run that has no entries (or no row yet): no row otherwise. */
export const acquireAtStartSql = (s: string) => `
INSERT INTO ${s}.runs AS r (run_id, fence) VALUES ($1, 1)
ON CONFLICT (run_id) DO UPDATE SET fence = r.fence + 1 WHERE r.version = 0
RETURNING fence`;

/** $1 run id, $2 version. The newest owner while the run still has `version` entries: no row otherwise. */
export const acquireAtSql = (s: string) => `
UPDATE ${s}.runs SET fence = fence + 1 WHERE run_id = $1 AND version = $2
RETURNING fence`;

/**
 * $1 run id, $2 fence, $3 entries (text[]), $4 agent id, $5 tenant (or null), $6 status.
 * Appends the entries after the stored ones and sets where the run stands, when $2 is still the
 * run's fence: returns the new version; no row (nothing written) otherwise.
 */
export const appendSql = (s: string) => `
WITH owner AS (
  UPDATE ${s}.runs SET version = version + cardinality($3::text[]), agent_id = $4, tenant = $5, status = $6
  WHERE run_id = $1 AND fence = $2
  RETURNING version
), added AS (
  INSERT INTO ${s}.run_entries (run_id, seq, entry)
  SELECT $1, owner.version - cardinality($3::text[]) + entry.ordinality::integer - 1, entry.text
  FROM owner, unnest($3::text[]) WITH ORDINALITY AS entry(text, ordinality)
)
SELECT version FROM owner`;

/** $1 run id. The run and its entries in order, read in one snapshot; no row for a run never appended to. */
export const loadSql = (s: string) => `
SELECT agent_id, tenant, status, version,
  ARRAY(SELECT entry FROM ${s}.run_entries WHERE run_id = $1 ORDER BY seq) AS entries
FROM ${s}.runs WHERE run_id = $1 AND agent_id IS NOT NULL`;

/**
 * $1 key, $2 ttl in ms (null: never expires). Spends the claim when it is new or its time is up:
 * one row the first time, none while it holds.
 */
export const claimSql = (s: string) => `
INSERT INTO ${s}.claims AS c (key, expires_at)
VALUES ($1, COALESCE(clock_timestamp() + $2::bigint * interval '1 millisecond', 'infinity'))
ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE c.expires_at <= clock_timestamp()
RETURNING key`;

/** $1 key. Gives the claim back. */
export const releaseSql = (s: string) => `DELETE FROM ${s}.claims WHERE key = $1`;

/** Forgets claims whose time is up (a few at a time, so no call waits long). */
export const sweepClaimsSql = (s: string) => `
DELETE FROM ${s}.claims WHERE key IN (
  SELECT key FROM ${s}.claims WHERE expires_at <= clock_timestamp() LIMIT 1000 FOR UPDATE SKIP LOCKED
)`;
