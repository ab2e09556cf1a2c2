import { MissingSdkError } from '../errors/missing-sdk-error';

const MISSING_CODES = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']);

/** True when `error` says that `sdk` itself (not one of its files or dependencies) could not be found. */
function isMissing(error: unknown, sdk: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof message !== 'string' || !message.includes(`'${sdk}'`) && !message.includes(`"${sdk}"`)) return false;
  return (typeof code === 'string' && MISSING_CODES.has(code)) || /cannot find (module|package)|could not (find|resolve)|not found/i.test(message);
}

/**
 * Loads a vendor SDK on first use, so importing a provider never requires an SDK the project does
 * not use. A missing SDK becomes a {@link MissingSdkError} naming the package to install.
 */
export async function loadSdk<T>(load: () => Promise<T>, about: { readonly sdk: string; readonly range: string; readonly provider: string }): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, about.sdk)) throw new MissingSdkError({ ...about, cause: error });
    throw error;
  }
}
