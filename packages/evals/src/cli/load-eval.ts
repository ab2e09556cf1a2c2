import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessageOf, readField } from '@keel/core/internal';
import { EvalConfigurationError } from '../errors/eval-configuration-error';
import type { EvalDefinition } from '../evaluate/eval-types';

/** Why an eval file could not be imported, in a sentence: a TypeScript file Node cannot load by itself says how to run it. */
export function loadFailureMessage(file: string, error: unknown): string {
  if (readField(error, 'code') === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.[cm]?tsx?$/.test(file)) {
    return `the eval file ${file} is TypeScript, which Node does not load by itself: run it with a loader (NODE_OPTIONS="--import tsx" keel-eval ${file}), or build it to JavaScript first`;
  }
  return `the eval file ${file} cannot be loaded: ${errorMessageOf(error)}`;
}

/**
 * The eval an eval file exports: its default export or `eval`, an object or a function (sync or
 * async) returning one.
 * @throws {EvalConfigurationError} when the file cannot be loaded, its function throws, or it exports no eval.
 */
export async function loadEval(file: string): Promise<EvalDefinition> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new EvalConfigurationError({ message: loadFailureMessage(file, error), cause: error });
  }
  const exported = module['default'] ?? module['eval'];
  let definition: unknown = exported;
  if (typeof exported === 'function') {
    try {
      definition = await (exported as () => unknown)();
    } catch (error) {
      throw new EvalConfigurationError({ message: `the eval function the file ${file} exports threw: ${errorMessageOf(error)}`, cause: error });
    }
  }
  if (typeof definition !== 'object' || definition === null) throw new EvalConfigurationError({ message: `the eval file ${file} exports no eval: export default { agent, dataset, scorers? }` });
  return definition as EvalDefinition;
}
