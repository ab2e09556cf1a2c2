/** A path into a JSON value: property names and array indexes. */
export type Path = readonly (string | number)[];

/** Issue kinds a validator reports for a value defect. */
export type DefectKind = 'missing' | 'extra' | 'type' | 'format' | 'enum' | 'too-small';

export type SyntaxDefectClass = 'markdown-fence' | 'prose' | 'trailing-comma' | 'single-quotes' | 'truncated';
export type ValueDefectClass = 'unit-string' | 'missing-field' | 'extra-field' | 'string-for-list' | 'list-for-string' | 'natural-date' | 'enum-case' | 'nested-path';
export type DefectClass = SyntaxDefectClass | ValueDefectClass | 'several';

/** A defect in the value, at one path, of the kind a validator reports for it. */
export interface ValueDefect {
  readonly class: ValueDefectClass;
  readonly path: Path;
  readonly kind: DefectKind;
  /** `set` writes `value` at the path (a new key for `extra`); `delete` removes the key. */
  readonly op: 'set' | 'delete';
  readonly value?: unknown;
}

/** A defect in the text around or inside the JSON. */
export type SyntaxDefect =
  | { readonly class: 'markdown-fence'; readonly language: string }
  | { readonly class: 'prose'; readonly before: string; readonly after: string }
  | { readonly class: 'trailing-comma' }
  | { readonly class: 'single-quotes' }
  /** Keeps this fraction of the JSON text (the rest, and any closing fence or prose, is lost). */
  | { readonly class: 'truncated'; readonly keep: number };

/** `items[0].qty`; the root is `(root)`. The notation validators and feedback use. */
export function pathString(path: Path): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out;
}

/** Applies value defects to a copy of a valid object. */
export function applyValueDefects(source: unknown, defects: readonly ValueDefect[]): unknown {
  const value: unknown = structuredClone(source);
  for (const defect of defects) {
    let parent = value as Record<string | number, unknown>;
    for (const segment of defect.path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
    const key = defect.path[defect.path.length - 1] as string | number;
    if (defect.op === 'delete') delete parent[key];
    else parent[key] = defect.value;
  }
  return value;
}

/** Python-style quoting (as `repr` writes it): single quotes unless the text holds one and no double quote. */
function singleQuoted(text: string): string {
  if (text.includes("'") && !text.includes('"')) return JSON.stringify(text);
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** Serialises like `JSON.stringify(value, null, indent)`, optionally with single quotes and trailing commas. */
export function serialize(value: unknown, options: { indent: number; singleQuotes: boolean; trailingCommas: boolean }, depth = 0): string {
  const string = (text: string) => (options.singleQuotes ? singleQuoted(text) : JSON.stringify(text));
  if (typeof value === 'string') return string(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Array.isArray(value)
    ? value.map((item) => serialize(item, options, depth + 1))
    : Object.entries(value).map(([key, item]) => `${string(key)}:${options.indent ? ' ' : ''}${serialize(item, options, depth + 1)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  const comma = options.trailingCommas ? ',' : '';
  if (!options.indent) return `${open}${entries.join(',')}${comma}${close}`;
  const inner = ' '.repeat(options.indent * (depth + 1));
  const outer = ' '.repeat(options.indent * depth);
  return `${open}\n${inner}${entries.join(`,\n${inner}`)}${comma}\n${outer}${close}`;
}

/** The text a model sends for a value with its remaining defects. */
export function renderOutput(source: unknown, valueDefects: readonly ValueDefect[], syntaxDefects: readonly SyntaxDefect[], indent: number): string {
  const has = (name: SyntaxDefectClass) => syntaxDefects.find((defect) => defect.class === name);
  const value = applyValueDefects(source, valueDefects);
  let text = serialize(value, { indent, singleQuotes: has('single-quotes') !== undefined, trailingCommas: has('trailing-comma') !== undefined });
  const truncated = has('truncated');
  if (truncated?.class === 'truncated') text = text.slice(0, Math.max(1, Math.floor(text.length * truncated.keep)));
  const fence = has('markdown-fence');
  if (fence?.class === 'markdown-fence') text = `\`\`\`${fence.language}\n${text}${truncated ? '' : '\n```'}`;
  const prose = has('prose');
  if (prose?.class === 'prose') text = `${prose.before}${text}${truncated ? '' : prose.after}`;
  return text;
}
