import { describe, expect, it } from 'vitest';
import { parseArguments } from './parse-arguments';

describe('keel-eval arguments', () => {
  it('reads the eval file and the options, in both spellings', () => {
    expect(parseArguments(['triage.eval.js'])).toEqual({ file: 'triage.eval.js', out: 'eval-reports' });
    expect(parseArguments(['--out', 'reports', 'e.js', '--baseline=base.json', '--min-pass-rate', '0.9', '--concurrency=2'])).toEqual({ file: 'e.js', out: 'reports', baseline: 'base.json', minPassRate: 0.9, concurrency: 2 });
  });

  it('says what is wrong', () => {
    expect(parseArguments([])).toBe('no eval file given');
    expect(parseArguments(['a.js', 'b.js'])).toBe('one eval file at a time, not 2');
    expect(parseArguments(['a.js', '--fast'])).toBe('unknown option --fast');
    expect(parseArguments(['a.js', '--baseline'])).toBe('--baseline needs a value');
    expect(parseArguments(['a.js', '--min-pass-rate', '90'])).toBe('--min-pass-rate must be a number from 0 to 1, not "90"');
    // Blanks and other spellings are not read as 0 (a gate that always passes).
    expect(parseArguments(['a.js', '--min-pass-rate', ' '])).toBe('--min-pass-rate must be a number from 0 to 1, not " "');
    expect(parseArguments(['a.js', '--min-pass-rate=0x0'])).toBe('--min-pass-rate must be a number from 0 to 1, not "0x0"');
    expect(parseArguments(['a.js', '--min-pass-rate', '.5'])).toMatchObject({ minPassRate: 0.5 });
    expect(parseArguments(['a.js', '--concurrency', ' '])).toBe('--concurrency must be a whole number of 1 or more');
    expect(parseArguments(['a.js', '--concurrency', '1.5'])).toBe('--concurrency must be a whole number of 1 or more');
  });
});
