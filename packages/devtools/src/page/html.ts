import { escapeHtml } from '@keel/core/internal';

/** Markup already escaped, so {@link html} inserts it as is. */
export interface SafeHtml {
  readonly html: string;
}

const isSafe = (value: unknown): value is SafeHtml => typeof value === 'object' && value !== null && typeof (value as SafeHtml).html === 'string' && Object.keys(value).length === 1;

const piece = (value: unknown): string => {
  if (value === undefined || value === null || value === false) return '';
  if (Array.isArray(value)) return value.map(piece).join('');
  return isSafe(value) ? value.html : escapeHtml(value);
};

/**
 * A template tag that escapes every interpolated value, unless it is {@link SafeHtml} made by
 * this tag (lists are joined; `undefined`, `null` and `false` are left out). The only way the
 * page is built, so no text reaches it unescaped.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += piece(value) + (strings[index + 1] ?? '');
  });
  return { html: out };
}

/** US dollars with enough digits for a single call's cost. */
export function formatUsd(value: number): string {
  if (value === 0) return '$0';
  if (value >= 1) return `$${value.toFixed(2)}`;
  if (value >= 0.01) return `$${value.toFixed(4)}`;
  return `$${value.toFixed(6)}`;
}

/** A count with thousands separators. */
export const formatCount = (value: number): string => value.toLocaleString('en-US');

/** A timestamp as `2026-01-31 12:00:00` (UTC). */
export const formatTime = (timestamp: number): string => (Number.isFinite(timestamp) ? new Date(timestamp).toISOString().slice(0, 19).replace('T', ' ') : '?');

/** A run's loop of parents as `its parents loop: a → b → a`, each run followed by its parent. */
export const formatParentLoop = (loop: readonly string[]): string => `its parents loop: ${[...loop, loop[0]].join(' → ')}`;
