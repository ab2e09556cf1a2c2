/** Throws a `TypeError` naming `owner` and the setting for the first of `settings` that is not a finite number >= 0. */
export function requireNonNegative(owner: string, settings: Readonly<Record<string, number>>): void {
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`${owner}: ${name} must be a finite number >= 0, got ${value}`);
  }
}
