import type { ModelCapabilities } from '@keel/provider';

const capabilityNames = ['nativeOutput', 'strictTools', 'contextWindow'] as const;

/**
 * Checks a provider's `capabilities` option: an object whose `nativeOutput` and `strictTools`, when
 * given, are booleans, and whose `contextWindow` is a whole number of tokens. Anything else throws a `TypeError` naming the option, so a typo or a string
 * `'true'` in plain JavaScript is not silently read as no capability.
 */
export function checkDeclaredCapabilities(provider: string, declared: unknown): ModelCapabilities | undefined {
  if (declared === undefined) return undefined;
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) {
    throw new TypeError(`${provider}({ capabilities }) must be an object such as { nativeOutput: true, strictTools: true }`);
  }
  const checked: { -readonly [Name in keyof ModelCapabilities]: ModelCapabilities[Name] } = {};
  for (const [name, value] of Object.entries(declared)) {
    if (!(capabilityNames as readonly string[]).includes(name)) throw new TypeError(`${provider}({ capabilities }) has an unknown capability ${JSON.stringify(name)}: the capabilities are ${capabilityNames.join(', ')}`);
    if (value === undefined) continue;
    if (name === 'contextWindow') {
      if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 1)) throw new TypeError(`${provider}({ capabilities: { contextWindow } }) must be a whole number of tokens >= 1`);
      checked.contextWindow = value;
      continue;
    }
    if (typeof value !== 'boolean') throw new TypeError(`${provider}({ capabilities: { ${name} } }) must be true or false`);
    checked[name as 'nativeOutput' | 'strictTools'] = value;
  }
  return checked;
}

/**
 * A model's capabilities: the provider's tables for the model id (its capabilities and its context
 * window), with what the user declared (`capabilities` option) taking precedence, field by field.
 * `nativeOutput` and `strictTools` are always present; `contextWindow` when known or declared.
 */
export function resolveCapabilities(known: ModelCapabilities, contextWindow: number | undefined, declared: ModelCapabilities | undefined): ModelCapabilities {
  const window = declared?.contextWindow ?? contextWindow;
  return {
    nativeOutput: declared?.nativeOutput ?? known.nativeOutput ?? false,
    strictTools: declared?.strictTools ?? known.strictTools ?? false,
    ...(window === undefined ? {} : { contextWindow: window }),
  };
}
