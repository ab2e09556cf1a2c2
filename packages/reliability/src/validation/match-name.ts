/**
 * True when a text's letter case carries no meaning of its own: all lower case, all upper case, or
 * words capitalised (`refund`, `LOW`, `In Progress`). Mixed case such as `mW` (milliwatt), `kW` or
 * `iOS` carries meaning: case folding never maps onto it, nor from it.
 */
function plainCase(text: string): boolean {
  if (text === text.toLowerCase() || text === text.toUpperCase()) return true;
  return text.split(/[^\p{L}]+/u).every((word) => word === '' || word.slice(1) === word.slice(1).toLowerCase());
}

/**
 * The names `text` equals ignoring letter case, each seen through `view`: the one name when it
 * alone folds alike and both are in plain case; every name that folds alike when several do (no
 * unique reading); none when the one name or `text` carries meaning in its case.
 */
function caseReadings(text: string, names: readonly string[], view: (name: string) => string): readonly string[] {
  if (!plainCase(text)) return [];
  const wanted = text.toLowerCase();
  const folding = names.filter((name) => view(name).toLowerCase() === wanted);
  if (folding.length !== 1) return folding;
  return plainCase(view(folding[0] as string)) ? folding : [];
}

/**
 * The one name among `names` (allowed values, property names) that `text` stands for, or
 * `undefined` when none or several do. Readings that change one thing are weighed first: the
 * spaces around the text, or its letter case (see {@link caseReadings}); exactly one name must
 * come of them. Only when none does, both changes together: the one name equal once both are
 * trimmed and case is ignored. `"b "` among `b` and `B ` names no one value: dropping a space
 * gives one, changing the case the other.
 */
export function matchName(text: string, names: readonly string[]): string | undefined {
  if (names.includes(text)) return text;
  const trimmed = text.trim();
  const near = new Set(names.filter((name) => name.trim() === trimmed));
  for (const name of caseReadings(text, names, (name) => name)) near.add(name);
  if (near.size > 0) return near.size === 1 ? (near.values().next().value as string) : undefined;
  const far = caseReadings(trimmed, names, (name) => name.trim());
  return far.length === 1 ? far[0] : undefined;
}
