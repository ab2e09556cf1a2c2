import { readdirSync, readFileSync } from 'node:fs';
import type { SchemaValidationResult, SchemaValidator } from '../validation/schema-validator';

/** The official JSON Schema test suite, as checked in (required tests only: `optional/` is not read here). */
export const SUITE = new URL('../../test/fixtures/json-schema-test-suite/', import.meta.url);

/** What is listed about a case a validator does not get right, and why. */
export const REFUSALS = new URL('../../test/fixtures/json-schema-suite-refusals.json', import.meta.url);

/** The groups whose issues the two validators word differently, and how. */
export const WORDING = new URL('../../test/fixtures/json-schema-suite-wording.json', import.meta.url);

export type SuiteDialect = 'draft7' | 'draft2020-12';

export interface SuiteGroup {
  /** `file #index description`: unique within a dialect. */
  readonly id: string;
  readonly schema: object | boolean;
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
}

/** Every group of the required tests of a dialect. */
export function suiteGroups(dialect: SuiteDialect): SuiteGroup[] {
  const folder = new URL(`${dialect}/`, SUITE);
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) =>
      (JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as { description: string; schema: object | boolean; tests: SuiteGroup['tests'] }[]).map((group, index) => ({
        id: `${file} #${index} ${group.description}`,
        schema: group.schema,
        tests: group.tests,
      })),
    );
}

/** How a validator fared on one group: its build error, or each case it got wrong. */
export interface GroupOutcome {
  readonly id: string;
  readonly cases: number;
  /** The message of the error that refused the schema, when it was refused. */
  readonly refused?: string;
  /** Cases refused though valid (the safe side). */
  readonly refusedValid: readonly string[];
  /** Cases accepted though invalid: never allowed. */
  readonly acceptedInvalid: readonly string[];
}

/** Runs one group through a validator factory. */
export function runGroup(group: SuiteGroup, make: (schema: object | boolean) => SchemaValidator<unknown>): GroupOutcome {
  let validator: SchemaValidator<unknown>;
  try {
    validator = make(group.schema);
  } catch (error) {
    return { id: group.id, cases: group.tests.length, refused: (error as Error).message, refusedValid: [], acceptedInvalid: [] };
  }
  const refusedValid: string[] = [];
  const acceptedInvalid: string[] = [];
  for (const test of group.tests) {
    const { ok } = validator.validate(test.data) as SchemaValidationResult<unknown>;
    if (ok && !test.valid) acceptedInvalid.push(test.description);
    if (!ok && test.valid) refusedValid.push(test.description);
  }
  return { id: group.id, cases: group.tests.length, refusedValid, acceptedInvalid };
}

/** One listed refusal: a group refused at build, or one case refused though valid. */
export interface ListedRefusal {
  readonly dialect: SuiteDialect;
  readonly group: string;
  /** The case, for a valid value refused; absent for a schema refused at build. */
  readonly case?: string;
  readonly validators: readonly ('ajv' | 'interpreter')[];
  readonly reason: string;
}
