/** One step of the schema: applied once per schema, in order, recorded in its `migrations` table. */
export interface Migration {
  /** Its place in the order: 1, 2, ... Never reused, never changed once released. */
  readonly version: number;
  readonly name: string;
  /** Its statements for the schema `schema` (already quoted); each idempotent on its own. */
  statements(schema: string): readonly string[];
}

/**
 * Every table Keel keeps, oldest step first. A change is a new step at the end, never an edit of
 * a released one. Journal entries and exchanges are `text`, not `jsonb`: what was written is read
 * back byte for byte (key order included), as the journal's MAC chain needs.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'run store',
    statements: (schema) => [
      `CREATE TABLE IF NOT EXISTS ${schema}.runs (
        run_id text PRIMARY KEY,
        fence bigint NOT NULL,
        version integer NOT NULL DEFAULT 0,
        agent_id text,
        tenant text,
        status text CHECK (status IN ('running', 'suspended', 'complete', 'failed'))
      )`,
      `CREATE TABLE IF NOT EXISTS ${schema}.run_entries (
        run_id text NOT NULL REFERENCES ${schema}.runs (run_id) ON DELETE CASCADE,
        seq integer NOT NULL,
        entry text NOT NULL,
        PRIMARY KEY (run_id, seq)
      )`,
      `CREATE TABLE IF NOT EXISTS ${schema}.claims (
        key text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS claims_expires_at ON ${schema}.claims (expires_at)`,
    ],
  },
  {
    version: 2,
    name: 'conversation memory',
    statements: (schema) => [
      `CREATE TABLE IF NOT EXISTS ${schema}.conversations (
        conversation_id text PRIMARY KEY,
        fence bigint NOT NULL,
        lease_token bigint,
        lease_run text,
        lease_expires_at timestamptz,
        expires_at timestamptz
      )`,
      `CREATE INDEX IF NOT EXISTS conversations_expires_at ON ${schema}.conversations (expires_at) WHERE expires_at IS NOT NULL`,
      `CREATE TABLE IF NOT EXISTS ${schema}.exchanges (
        conversation_id text NOT NULL REFERENCES ${schema}.conversations (conversation_id) ON DELETE CASCADE,
        exchange_id text NOT NULL,
        position bigint GENERATED ALWAYS AS IDENTITY,
        messages text NOT NULL,
        PRIMARY KEY (conversation_id, exchange_id)
      )`,
      `CREATE INDEX IF NOT EXISTS exchanges_order ON ${schema}.exchanges (conversation_id, position)`,
    ],
  },
];
