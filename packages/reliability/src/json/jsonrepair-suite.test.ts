import type { TSchema } from '@sinclair/typebox';
import { jsonrepair } from 'jsonrepair';
import { describe, expect, it } from 'vitest';
import { checkOutput } from '../validation/validate-output';
import { toValidator } from '../validation/to-validator';
import { JSONREPAIR_CASES, REFUSALS, type RepairSuiteCase } from '../../test/fixtures/jsonrepair-suite';

/** The schema a case is read with: its expected value's JSON type, nothing more. */
function schemaFor(value: unknown): { readonly type: string } {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return { type };
}

const validators = new Map<string, ReturnType<typeof toValidator>>();
function read(entry: RepairSuiteCase): { readonly ok: boolean; readonly value?: unknown } {
  const expected: unknown = JSON.parse(entry.output);
  const schema = schemaFor(expected);
  const validator = validators.get(schema.type) ?? toValidator(schema as unknown as TSchema);
  validators.set(schema.type, validator);
  const check = checkOutput(entry.input, validator);
  if (check instanceof Promise) throw new Error('a JSON Schema validator is synchronous');
  return check.ok ? { ok: true, value: check.value } : { ok: false };
}

describe("jsonrepair's own test inputs", () => {
  it('hold the outputs of the jsonrepair version Keel depends on', () => {
    const differ = JSONREPAIR_CASES.filter((entry) => {
      try {
        return jsonrepair(entry.input) !== entry.output && JSON.stringify(JSON.parse(jsonrepair(entry.input))) !== JSON.stringify(JSON.parse(entry.output));
      } catch {
        return true;
      }
    });
    // Line 451 of the suite passes its expected text as a second argument to expect(): it asserts nothing.
    expect(differ.map((entry) => entry.line)).toEqual([451]);
  });

  it('reads JSON that is valid already as it is', () => {
    const valid = JSONREPAIR_CASES.filter((entry) => entry.reading === 'valid');
    expect(valid.length).toBeGreaterThan(50);
    for (const entry of valid) expect(read(entry), JSON.stringify(entry.input)).toEqual({ ok: true, value: JSON.parse(entry.input) });
  });

  it("repairs at least 95% of the lossless cases to the library's value, and none to another", () => {
    const lossless = JSONREPAIR_CASES.filter((entry) => entry.reading === 'lossless');
    let same = 0;
    const wrong: string[] = [];
    const refused: string[] = [];
    for (const entry of lossless) {
      const result = read(entry);
      if (!result.ok) refused.push(`${entry.line} ${JSON.stringify(entry.input)}`);
      else if (JSON.stringify(result.value) === JSON.stringify(JSON.parse(entry.output))) same++;
      else wrong.push(`${entry.line} ${JSON.stringify(entry.input)} → ${JSON.stringify(result.value)}`);
    }
    const percent = (100 * same) / lossless.length;
    console.log(`jsonrepair suite: ${same} of ${lossless.length} lossless cases repaired to the library's value (${percent.toFixed(1)}%), ${wrong.length} to another value; refused: ${refused.join('; ') || 'none'}`);
    expect(wrong).toEqual([]);
    expect(lossless.length).toBeGreaterThan(100);
    expect(percent).toBeGreaterThanOrEqual(95);
  });

  it('refuses every case whose repair would guess, whatever the guess', () => {
    const guesses = JSONREPAIR_CASES.filter((entry) => entry.reading !== 'valid' && entry.reading !== 'lossless');
    const accepted = guesses.filter((entry) => read(entry).ok).map((entry) => `${entry.line} ${entry.reading} ${JSON.stringify(entry.input)}`);
    const byReason = Object.keys(REFUSALS).map((reason) => `${reason} ${guesses.filter((entry) => entry.reading === reason).length}`);
    console.log(`jsonrepair suite: ${guesses.length} cases need a guess and are refused (${byReason.join(', ')})`);
    expect(accepted).toEqual([]);
  });
});
