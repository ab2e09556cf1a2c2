/**
 * A token count read from the wire: a number as it is (the agent's ledger refuses negative or
 * non-finite ones and reports them), `null`/absent as 0, anything else (a string, an object) as
 * NaN — never a string that would concatenate — so the ledger records it as unknown and says so.
 */
export function wireCount(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value === undefined || value === null) return 0;
  return Number.NaN;
}
