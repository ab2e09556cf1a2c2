import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvalConfigurationError } from '../errors/eval-configuration-error';
import { loadEval, loadFailureMessage } from './load-eval';

describe('loading an eval file', () => {
  it('says how to run a TypeScript eval file Node cannot load by itself', () => {
    const unknownExtension = Object.assign(new TypeError('Unknown file extension ".ts" for /app/evals/triage.eval.ts'), { code: 'ERR_UNKNOWN_FILE_EXTENSION' });
    expect(loadFailureMessage('evals/triage.eval.ts', unknownExtension)).toBe(
      'the eval file evals/triage.eval.ts is TypeScript, which Node does not load by itself: run it with a loader (NODE_OPTIONS="--import tsx" keel-eval evals/triage.eval.ts), or build it to JavaScript first',
    );
    expect(loadFailureMessage('evals/triage.eval.mjs', new Error('Unexpected token'))).toBe('the eval file evals/triage.eval.mjs cannot be loaded: Unexpected token');
  });

  it('names the file whose exported eval function throws', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'keel-eval-load-')), 'throws.eval.mjs');
    writeFileSync(file, "export default () => { throw new Error('no dataset today'); };\n");
    const error: unknown = await loadEval(file).catch((thrown: unknown) => thrown);
    expect(EvalConfigurationError.isInstance(error) && error.message).toBe(`the eval function the file ${file} exports threw: no dataset today`);
  });
});
