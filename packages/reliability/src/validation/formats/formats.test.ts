import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkFormat, FORMATS } from './formats';

const folder = new URL('../../../test/fixtures/json-schema-test-suite/draft2020-12/optional/format/', import.meta.url);

interface Group {
  readonly description: string;
  readonly schema: { readonly format: string };
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
}

describe('formats, checked to their RFCs', () => {
  const files = readdirSync(folder).filter((file) => file.endsWith('.json'));

  it('agree with every case of the official suite for each format Keel asserts', () => {
    let cases = 0;
    for (const file of files) {
      for (const group of JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as Group[]) {
        if (!Object.hasOwn(FORMATS, group.schema.format)) continue;
        for (const test of group.tests) {
          cases++;
          expect({ file, case: test.description, valid: checkFormat(group.schema.format, test.data) }).toEqual({ file, case: test.description, valid: test.valid });
        }
      }
    }
    expect(cases).toBeGreaterThan(600);
  });

  it('refuse the values the loose patterns used to pass', () => {
    expect(checkFormat('hostname', 'xn--X')).toBe(false);
    expect(checkFormat('hostname', 'xn--9n2bp8q.xn--9t4b11yi5a')).toBe(true);
    expect(checkFormat('uri', 'http://example.com:abc/path')).toBe(false);
    expect(checkFormat('uri', 'http://example.com:8080/path')).toBe(true);
    expect(checkFormat('date-time', '1985-04-12T23:20:50+01')).toBe(false);
    expect(checkFormat('date-time', '1985-04-12T23:20:50+0100')).toBe(false);
    expect(checkFormat('date-time', '1985-04-12T23:20:50+01:00')).toBe(true);
    expect(checkFormat('time', '23:59:60Z')).toBe(true);
    expect(checkFormat('time', '22:59:60Z')).toBe(false);
    expect(checkFormat('email', 'a@xn--X')).toBe(false);
  });

  it('leave values of other JSON types alone and know no inherited names', () => {
    expect(checkFormat('hostname', 12)).toBe(true);
    expect(checkFormat('int32', 2 ** 31)).toBe(false);
    expect(checkFormat('int32', 'text')).toBe(true);
    expect(Object.hasOwn(FORMATS, 'toString')).toBe(false);
    expect(checkFormat('toString', 'anything')).toBe(true);
  });
});
