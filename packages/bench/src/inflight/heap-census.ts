import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

/** How many heap nodes of one kind there are, and their own size in bytes. */
export interface CensusEntry {
  /** The node's type and name as the heap snapshot gives them (`closure lookup`, `object Object`, `object system / Context`); strings by type alone. */
  readonly kind: string;
  /** Nodes of this kind per run. */
  readonly count: number;
  readonly bytes: number;
}

/** Every live heap node of a snapshot by kind. */
export type Census = ReadonlyMap<string, { readonly count: number; readonly bytes: number }>;

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: readonly string[]; readonly node_types: readonly [readonly string[], ...unknown[]] } };
  readonly nodes: readonly number[];
  readonly strings: readonly string[];
  /** Per located node (functions, suspended async functions): its offset in `nodes`, script id, line and column (0-based). */
  readonly locations: readonly number[];
}

/** Where a function is defined, by script id (see `scriptUrls`): `file:line` (1-based), the file's path after `src/` or `dist/`. */
function placeOf(urls: ReadonlyMap<number, string>, script: number, line: number): string {
  const url = urls.get(script) ?? `script ${script}`;
  return `${url.replace(/^.*\/(?:src|dist)\//, '')}:${line + 1}`;
}

/** Types of node that are the engine's code and its roots, never what a run holds. */
const CODE_TYPES = new Set(['code', 'synthetic']);

const STRING_TYPES = new Set(['string', 'concatenated string', 'sliced string']);

/**
 * Writes a heap snapshot (collecting garbage first) to a temporary file, to count later with
 * {@link countSnapshot}: counting while another snapshot's census is alive would count that too.
 */
export function writeSnapshot(): string {
  const file = join(tmpdir(), `keel-census-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.heapsnapshot`);
  return writeHeapSnapshot(file);
}

/**
 * Counts a snapshot's nodes by kind, and deletes its file. With `urls` (see `scriptUrls`),
 * functions and suspended async functions (`object Generator`) are told apart by where they are
 * defined. Compiled code is left out.
 */
export function countSnapshot(file: string, urls?: ReadonlyMap<number, string>): Census {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
    const fields = parsed.snapshot.meta.node_fields;
    const types = parsed.snapshot.meta.node_types[0];
    const width = fields.length;
    const typeAt = fields.indexOf('type');
    const nameAt = fields.indexOf('name');
    const sizeAt = fields.indexOf('self_size');
    const places = new Map<number, string>();
    if (urls) for (let index = 0; index < parsed.locations.length; index += 4) places.set(parsed.locations[index] as number, placeOf(urls, parsed.locations[index + 1] as number, parsed.locations[index + 2] as number));
    const census = new Map<string, { count: number; bytes: number }>();
    for (let index = 0; index < parsed.nodes.length; index += width) {
      const type = types[parsed.nodes[index + typeAt] as number] as string;
      if (CODE_TYPES.has(type)) continue;
      // A string's name is its text: counted by type, or each run's own id would be a kind of its own.
      const name = STRING_TYPES.has(type) ? '' : parsed.strings[parsed.nodes[index + nameAt] as number];
      const place = type === 'closure' || name === 'Generator' ? places.get(index) : undefined;
      const kind = place === undefined ? `${type} ${name}` : `${type} ${name} (${place})`;
      const entry = census.get(kind) ?? census.set(kind, { count: 0, bytes: 0 }).get(kind);
      if (!entry) continue;
      entry.count++;
      entry.bytes += parsed.nodes[index + sizeAt] as number;
    }
    return census;
  } finally {
    rmSync(file, { force: true });
  }
}

/** What `after` holds beyond `before`, per one of `per` (runs), most numerous first; kinds below 0.5 per run left out. */
export function censusDifference(before: Census, after: Census, per: number): CensusEntry[] {
  const entries: CensusEntry[] = [];
  for (const [kind, { count, bytes }] of after) {
    const was = before.get(kind);
    const entry = { kind, count: (count - (was?.count ?? 0)) / per, bytes: (bytes - (was?.bytes ?? 0)) / per };
    if (entry.count >= 0.5) entries.push(entry);
  }
  return entries.sort((a, b) => b.count - a.count || b.bytes - a.bytes);
}
