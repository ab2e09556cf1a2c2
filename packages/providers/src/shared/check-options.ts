/**
 * Refuses options a provider factory does not take, so a typo or an option of an earlier version
 * is never silently ignored: a removed option names what replaced it, an unknown one lists the
 * known ones.
 * @throws {TypeError} naming the option.
 */
export function checkOptions(provider: string, options: object, known: readonly string[], removed: Readonly<Record<string, string>>): void {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${provider}(options): options must be an object, got ${options === null ? 'null' : typeof options}`);
  for (const name of Object.keys(options)) {
    if ((options as Record<string, unknown>)[name] === undefined) continue;
    const replaced = removed[name];
    if (replaced !== undefined) throw new TypeError(`${provider}({ ${name} }) was removed: ${replaced}`);
    if (!known.includes(name)) throw new TypeError(`${provider}({ ${name} }) is not an option; the options are ${known.join(', ')}`);
  }
}

/** Options every adapter used to take and no longer does. */
export const REMOVED_OPTIONS: Readonly<Record<string, string>> = {
  model: 'the model id is set on the agent: Agent.create({ provider, model })',
};
