import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toValidator } from './to-validator';
import { checkOutput, validateOutput } from './validate-output';

const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() }, { additionalProperties: false });
const refund = toValidator(Refund);

describe('several JSON values in one reply', () => {
  it('asks for exactly one value when a draft and a final answer both match', async () => {
    const check = await validateOutput('Draft: {"action": "refund", "amount": 40}\nFinal: {"action": "refund", "amount": 50}', refund);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.failure.stage).toBe('json-parse');
    expect(check.failure.defect).toBe('several-values');
    expect(check.failure.message).toBe('The reply held 2 JSON values, 2 of them different and each matching the schema; reply with exactly one JSON value');
  });

  it('takes the one valid value when the longer one is invalid, recording candidate-selected', async () => {
    const text = 'Example shape: {"action": "refund or reject", "amount": "a number", "note": "optional"}\nAnswer: {"action": "reject", "amount": 0}';
    expect(await validateOutput(text, refund)).toEqual({ ok: true, value: { action: 'reject', amount: 0 }, repairs: ['prose-removed', 'candidate-selected'], coercions: [], issues: [] });
  });

  it('never falls back to a valid draft when the final answer after it is invalid', async () => {
    const check = await validateOutput('Draft: {"action": "refund", "amount": 40}\nFinal: {"action": "refund", "amount": "50 USD"}', refund);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.failure.issues).toEqual([{ path: ['amount'], pathText: 'amount', kind: 'type', expected: 'number', received: '50 USD', message: 'must be number' }]);
  });

  it('ignores a bracketed aside of another shape after the answer', async () => {
    expect(await validateOutput('{"action": "refund", "amount": 40} (see [1])', refund)).toMatchObject({ ok: true, value: { action: 'refund', amount: 40 }, repairs: ['prose-removed', 'candidate-selected'] });
  });

  it('accepts the same value given twice', async () => {
    const check = await validateOutput('{"action": "refund", "amount": 5}\n```json\n{"action": "refund", "amount": 5}\n```', refund);
    expect(check).toMatchObject({ ok: true, value: { action: 'refund', amount: 5 } });
  });

  it('reports the candidate with the fewest issues when none is valid', async () => {
    const check = await validateOutput('{"action": "x", "amount": "y", "extra": 1}\n{"action": "refund", "amount": "lots"}', refund);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.failure.stage).toBe('schema-validate');
    expect(check.failure.issues.map((issue) => [issue.path, issue.kind])).toEqual([[['amount'], 'type']]);
    expect(check.value).toEqual({ action: 'refund', amount: 'lots' });
  });
});

describe('a truncated or lossy reply is never accepted', () => {
  it.each([
    ['{"action": "refund", "amount": 5', 'truncated'],
    ['{"action": "refund", "amount": 5, ...}', 'ellipsis'],
    ['{"action": pending, "amount": 5}', 'unquoted-value'],
  ] as const)('%j is a parse failure (%s)', (text, defect) => {
    const check = checkOutput(text, refund);
    expect(check).toMatchObject({ ok: false, failure: { stage: 'json-parse', defect } });
  });
});

describe('schema-guided coercion', () => {
  const Order = Type.Object({
    total: Type.Number(),
    count: Type.Integer(),
    paid: Type.Boolean(),
    tags: Type.Array(Type.String()),
    size: Type.Union([Type.Literal('small'), Type.Literal('large')]),
    note: Type.Optional(Type.String()),
  });
  const order = toValidator(Order);

  it('fixes each unique, lossless mismatch and records it with path, from and to', () => {
    const text = '{"total": "12.5", "count": "3", "paid": "true", "tags": "gift", "size": " Large ", "note": null}';
    expect(checkOutput(text, order)).toEqual({
      ok: true,
      value: { total: 12.5, count: 3, paid: true, tags: ['gift'], size: 'large' },
      repairs: [],
      issues: [],
      coercions: [
        { path: ['total'], kind: 'number-from-string', from: '12.5', to: 12.5 },
        { path: ['count'], kind: 'number-from-string', from: '3', to: 3 },
        { path: ['paid'], kind: 'boolean-from-string', from: 'true', to: true },
        { path: ['tags'], kind: 'single-to-array', from: 'gift', to: ['gift'] },
        { path: ['size'], kind: 'enum-case', from: ' Large ', to: 'large' },
        { path: ['note'], kind: 'null-to-absent', from: null },
      ],
    });
  });

  it('never turns "USD 50", a fractional integer or an ambiguous enum into a value', async () => {
    const check = await validateOutput('{"total": "USD 50", "count": "2.5", "paid": "yes", "tags": [], "size": "medium"}', order);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.failure.issues.map((issue) => issue.path[0])).toEqual(['total', 'count', 'paid', 'size']);
  });

  it('never wraps a string that may hold several items', async () => {
    const check = await validateOutput('{"total": 1, "count": 1, "paid": true, "tags": "gift, red", "size": "small"}', order);
    expect(check).toMatchObject({ ok: false, failure: { issues: [{ path: ['tags'], kind: 'type' }] } });
  });

  it('leaves a null alone where the property is required', () => {
    const check = checkOutput('{"total": 1, "count": 1, "paid": true, "tags": [], "size": "small", "note": "x"}', order);
    expect(check).toMatchObject({ ok: true, coercions: [] });
    const required = checkOutput('{"total": null, "count": 1, "paid": true, "tags": [], "size": "small"}', order);
    expect(required).toMatchObject({ ok: false, failure: { issues: [{ path: ['total'], kind: 'type' }] } });
  });

  it('is off with coerce: false', () => {
    expect(checkOutput('{"action": "refund", "amount": "5"}', refund, { coerce: false })).toMatchObject({ ok: false, failure: { issues: [{ path: ['amount'], kind: 'type' }] } });
    expect(checkOutput('{"action": "refund", "amount": "5"}', refund)).toMatchObject({ ok: true, value: { action: 'refund', amount: 5 } });
  });

  it('returns the coerced value and remaining issues with strict: false', () => {
    expect(checkOutput('{"action": "REFUND", "amount": "ten"}', refund, { strict: false })).toEqual({
      ok: true,
      value: { action: 'refund', amount: 'ten' },
      repairs: [],
      coercions: [{ path: ['action'], kind: 'enum-case', from: 'REFUND', to: 'refund' }],
      issues: [{ path: ['amount'], pathText: 'amount', kind: 'type', expected: 'number', received: 'ten', message: 'must be number' }],
    });
  });

  it('coerces nested array items and works with a Standard Schema', async () => {
    const Items = z.object({ items: z.array(z.object({ qty: z.number().int(), sku: z.string() })) });
    const check = await validateOutput('{"items": [{"qty": "2", "sku": "A"}, {"qty": 3, "sku": "B"}]}', toValidator(Items));
    expect(check).toEqual({ ok: true, value: { items: [{ qty: 2, sku: 'A' }, { qty: 3, sku: 'B' }] }, repairs: [], issues: [], coercions: [{ path: ['items', 0, 'qty'], kind: 'number-from-string', from: '2', to: 2 }] });
  });
});

describe('a later answer that cannot be used is never replaced by an earlier valid one', () => {
  it('fails when the final answer after a valid draft does not parse', () => {
    const check = checkOutput('Draft: {"action": "refund", "amount": 40}\nFinal: {"action": "refund", "amount": 50 + 5}', refund);
    expect(check).toMatchObject({ ok: false, failure: { stage: 'json-parse', defect: 'string-concatenation' } });
  });

  it('asks for one value when a fenced example and the answer in prose after it both match', () => {
    const check = checkOutput('The format is:\n```json\n{"action": "reject", "amount": 0}\n```\nMy answer: {"action": "refund", "amount": 50}', refund);
    expect(check).toMatchObject({ ok: false, failure: { stage: 'json-parse', defect: 'several-values' } });
  });

  it('still takes the valid value when the broken one comes first', () => {
    const check = checkOutput('Format: {"action": refund|reject, "amount": n}\nAnswer: {"action": "refund", "amount": 50}', refund);
    expect(check).toMatchObject({ ok: true, value: { action: 'refund', amount: 50 } });
  });
});

describe('coercion never changes what the model wrote', () => {
  const Ids = Type.Object({ id: Type.Integer(), tags: Type.Array(Type.String()) });

  it('does not turn digits a number cannot hold into a different number', () => {
    const check = checkOutput('{"id": "9007199254740993", "tags": []}', toValidator(Ids));
    expect(check).toMatchObject({ ok: false, failure: { stage: 'schema-validate', issues: [{ path: ['id'], kind: 'type' }] } });
  });

  it.each(['[\\"a\\"]', '[]', '{\\"a\\": 1}'])('does not wrap %j, an array or object written as a string, as one item', (tags) => {
    const check = checkOutput(`{"id": 1, "tags": "${tags}"}`, toValidator(Ids));
    expect(check).toMatchObject({ ok: false, failure: { stage: 'schema-validate', issues: [{ path: ['tags'], kind: 'type' }] } });
  });
});
