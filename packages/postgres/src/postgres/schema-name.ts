/** A PostgreSQL identifier Keel accepts without surprises: a letter or `_`, then letters, digits or `_`, at most 63 characters. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The schema name, checked and double-quoted for SQL (its case kept): `keel` gives `"keel"`. */
export function quotedSchema(schema: unknown, owner: string): string {
  if (typeof schema !== 'string' || !IDENTIFIER.test(schema)) {
    throw new TypeError(`${owner}: schema must be an identifier (a letter or _, then letters, digits or _, at most 63 characters), got ${JSON.stringify(schema)}`);
  }
  return `"${schema}"`;
}
