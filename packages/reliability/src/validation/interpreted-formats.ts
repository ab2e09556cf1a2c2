import { checkFormat, FORMATS } from './formats/formats';

/** The key of a marker node standing where a schema had `format`, read back when the marker fails. */
export const FORMAT_MARKER = 'x-keel-format';

type Node = Record<string, unknown>;

/**
 * Keel's format checks for an interpreter that only knows its own: each `format` of the schema is
 * replaced by a marker node in an `allOf` beside it. Before each validation, every marker gets
 * `not: { enum: [...] }` listing the values of the instance that fail its format, so the
 * interpreter refuses exactly those values, wherever the format applies, with Keel's checks.
 */
export class InterpretedFormats {
  private readonly markers: Node[] = [];

  /** Rewrites `schema` (a private copy) in place. */
  constructor(schema: unknown) {
    this.rewrite(schema);
  }

  private rewrite(value: unknown): void {
    const pending: unknown[] = [value];
    while (pending.length > 0) {
      const current = pending.pop();
      if (typeof current !== 'object' || current === null) continue;
      if (Array.isArray(current)) {
        pending.push(...current);
        continue;
      }
      const node = current as Node;
      for (const [key, child] of Object.entries(node)) if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') pending.push(child);
      if (typeof node.format !== 'string' || !Object.hasOwn(FORMATS, node.format)) continue;
      const marker: Node = { [FORMAT_MARKER]: node.format };
      this.markers.push(marker);
      node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), marker];
      delete node.format;
    }
  }

  /** Sets each marker to refuse the values of `instance` that fail its format. */
  prepare(instance: unknown): void {
    if (this.markers.length === 0) return;
    const scalars = new Set<unknown>();
    const pending: unknown[] = [instance];
    while (pending.length > 0) {
      const current = pending.pop();
      if (typeof current === 'string' || typeof current === 'number') scalars.add(current);
      else if (Array.isArray(current)) pending.push(...current);
      else if (typeof current === 'object' && current !== null) pending.push(...Object.values(current));
    }
    for (const marker of this.markers) {
      const format = marker[FORMAT_MARKER] as string;
      const failing = [...scalars].filter((value) => !checkFormat(format, value));
      if (failing.length === 0) delete marker.not;
      else marker.not = { enum: failing };
    }
  }
}
