import type { ToolSpecification } from '@keel/provider';

/** A deferred tool as the search reads it: its name, description and argument names, as words. */
export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
  readonly argumentNames: readonly string[];
  /** The words a query is matched against: the name's (counted three times), the description's, the argument names' (twice). */
  readonly words: readonly string[];
}

/** Words too common to rank by. */
const STOP_WORDS = new Set(['a', 'an', 'the', 'to', 'of', 'for', 'and', 'or', 'in', 'on', 'by', 'with', 'from', 'that', 'this', 'it', 'is', 'be', 'as', 'at', 'my', 'me', 'i', 'tool']);

/** Words of `text`, lower case: split at anything not a letter or digit and between camelCase humps, a plural `s` dropped, common words left out. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0 && !STOP_WORDS.has(word))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

/** The argument names a tool's input schema declares (its top-level properties). */
function argumentNamesOf(schema: unknown): string[] {
  const properties = typeof schema === 'object' && schema !== null ? (schema as { properties?: unknown }).properties : undefined;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** A tool's entry in the catalog the search ranks. */
export function catalogEntry(specification: ToolSpecification): CatalogEntry {
  const name = wordsOf(specification.name);
  const argumentNames = argumentNamesOf(specification.inputSchema);
  const argumentWords = argumentNames.flatMap(wordsOf);
  return { name: specification.name, description: specification.description ?? '', argumentNames, words: [...name, ...name, ...name, ...wordsOf(specification.description ?? ''), ...argumentWords, ...argumentWords] };
}

/** BM25's constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/**
 * The entries that match `query`, best first, at most `limit`: BM25 over each tool's words (name,
 * description, argument names), a query that is a tool's exact name first. Deterministic: ties
 * go by name, and the same catalog and query always give the same tools.
 */
export function rankTools(catalog: readonly CatalogEntry[], query: string, limit: number): CatalogEntry[] {
  const terms = [...new Set(wordsOf(query))];
  if (catalog.length === 0) return [];
  const average = catalog.reduce((sum, entry) => sum + entry.words.length, 0) / catalog.length;
  const frequency = new Map<string, number>();
  for (const entry of catalog) for (const word of new Set(entry.words)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  // A query that is a tool's exact name finds it, even when its words are all too common to rank by.
  const exact = query.trim().toLowerCase();
  const scored = catalog.map((entry) => {
    let score = entry.name.toLowerCase() === exact ? 1000 : 0;
    for (const term of terms) {
      const count = entry.words.filter((word) => word === term).length;
      if (count === 0) continue;
      const documents = frequency.get(term) ?? 0;
      const idf = Math.log(1 + (catalog.length - documents + 0.5) / (documents + 0.5));
      score += (idf * count * (K1 + 1)) / (count + K1 * (1 - B + (B * entry.words.length) / average));
    }
    return { entry, score };
  });
  return scored
    .filter((item) => item.score > 0)
    .sort((left, right) => right.score - left.score || (left.entry.name < right.entry.name ? -1 : left.entry.name > right.entry.name ? 1 : 0))
    .slice(0, Math.max(0, limit))
    .map((item) => item.entry);
}
