import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberLiterals } from '../json/number-literals';
import { checkOutput } from '../validation/validate-output';
import { toValidator } from '../validation/to-validator';
import { patchRequestOf } from './patch-request';
import { readPatchReply } from './read-patch-reply';

/**
 * Attacks on patches: a large answer whose numbers are written every way JSON allows (`1.10`,
 * `1e3`, `-0.0`, `1E+2`), some where a string is due, one field wrong. After a patch of that
 * field, every other number reads exactly as it did in the rejected reply: its literal text, and
 * the string a coercion makes of it.
 */
const literal = fc.constantFrom('1.10', '1e3', '2.50', '-0.0', '0', '12', '3.14159', '1E+2', '-7.000', '0.1', '100');
const Release = Type.Object({ items: Type.Array(Type.Object({ tag: Type.String(), size: Type.Number() })) });
const validator = toValidator(Release);

describe('a patch never rewrites a number the model wrote', () => {
  it('every number outside the patched path keeps its literal text, and a string made of one keeps its digits', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(literal, literal), { minLength: 20, maxLength: 60 }), fc.nat(), literal, fc.constantFrom(0, 2), (rows, at, patched, indent) => {
        const bad = at % rows.length;
        // A number where a string is due in a few rows (each an issue the feedback names), strings elsewhere.
        const tags = rows.map(([tag], index) => (index % 10 === 3 ? tag : JSON.stringify(`v${tag}`)));
        const items = rows.map(([, size], index) => `${' '.repeat(indent)}{"tag": ${tags[index]}, "size": ${index === bad ? '"big"' : size}}`);
        const text = `{"items": [\n${items.join(',\n')}\n]}`;
        const checked = checkOutput(text, validator);
        if (checked instanceof Promise || checked.ok) throw new Error('expected a synchronous failure');
        const request = patchRequestOf(checked.failure, checked.value, { minTokens: 10, maxPaths: 8 });
        if (request === undefined) throw new Error('expected a patch request');
        const reading = readPatchReply(`{"items[${bad}].size": ${patched}}`, request);
        if (reading.type !== 'patch') throw new Error(`expected a patch, got ${reading.type}`);
        const before = numberLiterals(text);
        const after = numberLiterals(reading.text);
        for (const [path, written] of before) {
          if (path === JSON.stringify(['items', bad, 'size'])) continue;
          expect(after.get(path), path).toBe(written);
        }
        expect(after.get(JSON.stringify(['items', bad, 'size']))).toBe(patched);
        const read = checkOutput(reading.text, validator);
        if (read instanceof Promise || !read.ok) throw new Error('expected the patched whole to validate');
        const value = read.value as { items: { tag: string; size: number }[] };
        tags.forEach((tag, index) => expect(value.items[index]?.tag).toBe(tag.startsWith('"') ? JSON.parse(tag) : tag));
      }),
      { numRuns: 150 },
    );
  });
});
