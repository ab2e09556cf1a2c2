/**
 * The support-triage eval as an eval file, for `keel-eval` in tests. Reads `EVAL_VARIANT`
 * (`baseline` or `changed`) and, for a cassette in front of the model, `EVAL_CASSETTE` and
 * `EVAL_CASSETTE_MODE`.
 */
import type { CassetteMode } from '../cassette/cassette';
import { supportEval } from './support-eval';

const path = process.env['EVAL_CASSETTE'];
export default supportEval({
  variant: process.env['EVAL_VARIANT'] === 'changed' ? 'changed' : 'baseline',
  ...(path ? { cassette: { path, mode: (process.env['EVAL_CASSETTE_MODE'] ?? 'replay') as CassetteMode } } : {}),
});
