import { quote } from '@keel/reliability';
import type { ToolGuard } from './guard';

/** A lower-case or upper-case RFC 4122 UUID. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Settings of {@link idShapeGuard}. */
export interface IdShapeGuardOptions {
  /** Argument fields holding ids; dotted paths reach nested fields (`owner.id`). */
  readonly fields: readonly string[];
  /** The shape real ids have. Default {@link UUID_PATTERN}. */
  readonly pattern?: RegExp;
  /** Limit the guard to these tools. Default: every tool. */
  readonly tools?: readonly string[];
  /** Words for the expected shape in the message. Default `a UUID`. */
  readonly shapeName?: string;
}

function read(args: unknown, path: string): unknown {
  let current = args;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Rejects fabricated ids: a listed field whose value is a string (or list of strings) that does
 * not have the real ids' shape, e.g. `project_id: "proj-123"` where ids are UUIDs. Code
 * `fabricated-id`. Absent fields are left to validation.
 */
export function idShapeGuard(options: IdShapeGuardOptions): ToolGuard {
  // Without the global and sticky flags: `test` on such a pattern keeps state between calls.
  const pattern = options.pattern ? new RegExp(options.pattern.source, options.pattern.flags.replace(/[gy]/g, '')) : UUID_PATTERN;
  const shapeName = options.shapeName ?? 'a UUID';
  return (toolName, args) => {
    if (options.tools && !options.tools.includes(toolName)) return undefined;
    for (const field of options.fields) {
      const value = read(args, field);
      const values = Array.isArray(value) ? value : [value];
      for (const candidate of values) {
        if (typeof candidate === 'string' && !pattern.test(candidate)) {
          return {
            code: 'fabricated-id',
            message: `'${field}' must be ${shapeName} taken from a tool result or the user; got ${quote(candidate)}, which looks invented. Do not guess ids.`,
          };
        }
      }
    }
    return undefined;
  };
}
