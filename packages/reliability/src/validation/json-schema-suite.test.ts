import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ajvValidator } from './ajv-validator';
import { interpretiveValidator } from './interpretive-validator';
import { type GroupOutcome, type ListedRefusal, REFUSALS, runGroup, type SuiteDialect, suiteGroups, WORDING } from '../testing/json-schema-suite';
import type { SchemaValidationResult, SchemaValidator } from './schema-validator';

const validators = { ajv: ajvValidator, interpreter: interpretiveValidator } as const;
/** The share of cases each validator must get right, per dialect. */
const floor: Readonly<Record<SuiteDialect, number>> = { draft7: 0.95, 'draft2020-12': 0.9 };
/** Compiling some 400 schemas takes about 2 s; a loaded machine gets room, this is no timed test. */
const LOADED = 30_000;
const listed = JSON.parse(readFileSync(REFUSALS, 'utf8')) as ListedRefusal[];
const wording = JSON.parse(readFileSync(WORDING, 'utf8')) as { dialect: SuiteDialect; group: string; reason: string }[];

/** The refusals of a run, keyed as the list keys them. */
function refusalsOf(outcomes: readonly GroupOutcome[]): string[] {
  return outcomes.flatMap((outcome) => (outcome.refused !== undefined ? [`${outcome.id} | (schema)`] : outcome.refusedValid.map((test) => `${outcome.id} | ${test}`))).sort();
}

describe('the official JSON Schema test suite (required tests)', () => {
  it('lists a reason for every refusal', () => {
    for (const entry of [...listed, ...wording]) expect(entry.reason.length, `${entry.group} ${'case' in entry ? entry.case : ''}`).toBeGreaterThan(20);
  });

  for (const dialect of ['draft7', 'draft2020-12'] as const) {
    const groups = suiteGroups(dialect);

    for (const [name, make] of Object.entries(validators)) {
      it(`${dialect}, ${name}: accepts no invalid value, gets at least ${floor[dialect] * 100}% right, and refuses only what is listed`, { timeout: LOADED }, () => {
        const outcomes = groups.map((group) => runGroup(group, make));
        const accepted = outcomes.flatMap((outcome) => outcome.acceptedInvalid.map((test) => `${outcome.id} | ${test}`));
        expect(accepted).toEqual([]);
        const expected = listed
          .filter((entry) => entry.dialect === dialect && entry.validators.includes(name as 'ajv' | 'interpreter'))
          .map((entry) => `${entry.group} | ${entry.case ?? '(schema)'}`)
          .sort();
        expect(refusalsOf(outcomes)).toEqual(expected);
        const total = outcomes.reduce((sum, outcome) => sum + outcome.cases, 0);
        const wrong = outcomes.reduce((sum, outcome) => sum + (outcome.refused !== undefined ? outcome.cases : outcome.refusedValid.length), 0);
        expect(total).toBeGreaterThan(dialect === 'draft7' ? 900 : 1250);
        // The figure docs/json-schema.md quotes.
        console.info(`${dialect} ${name}: ${total - wrong}/${total} right (${((100 * (total - wrong)) / total).toFixed(1)}%), 0 invalid accepted`);
        expect((total - wrong) / total).toBeGreaterThanOrEqual(floor[dialect]);
      });
    }

    it(`${dialect}: both validators report the same issues for every case, except the groups listed with how they differ`, { timeout: LOADED }, () => {
      const comparable = (validator: SchemaValidator<unknown>, data: unknown) => {
        const result = validator.validate(data) as SchemaValidationResult<unknown>;
        return result.ok ? result : { ok: false, issues: result.issues.map(({ branches: _branches, ...issue }) => issue) };
      };
      const differing: string[] = [];
      let compared = 0;
      for (const group of groups) {
        let compiled: SchemaValidator<unknown>;
        let interpreted: SchemaValidator<unknown>;
        try {
          compiled = ajvValidator(group.schema);
          interpreted = interpretiveValidator(group.schema);
        } catch {
          continue;
        }
        compared += group.tests.length;
        if (group.tests.some((test) => JSON.stringify(comparable(compiled, test.data)) !== JSON.stringify(comparable(interpreted, test.data)))) differing.push(group.id);
      }
      expect(differing).toEqual(wording.filter((entry) => entry.dialect === dialect).map((entry) => entry.group));
      expect(compared).toBeGreaterThan(800);
    });

    it(`${dialect}: both validators refuse the same schemas, with the same message`, { timeout: LOADED }, () => {
      const messages = (make: (schema: object | boolean) => unknown) =>
        groups.map((group) => {
          try {
            make(group.schema);
            return `${group.id}: built`;
          } catch (error) {
            return `${group.id}: ${(error as Error).message}`;
          }
        });
      const interpreted = messages(interpretiveValidator);
      const compiled = messages(ajvValidator);
      // Only the groups that differ, so a failure shows them.
      expect(interpreted.filter((message, index) => message !== compiled[index])).toEqual(compiled.filter((message, index) => message !== interpreted[index]));
      expect(compiled.filter((message) => !message.endsWith(': built')).length).toBeGreaterThan(10);
    });
  }
});
