import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { ValidationIssue } from '../validation/issue';
import { toValidator } from '../validation/to-validator';
import { withShapes } from '../validation/with-shapes';
import { formatFeedback, MAX_FEEDBACK_LINES } from './format-feedback';
import { groupIssues } from './group-issues';

function issuesOf(schema: object, value: unknown): readonly ValidationIssue[] {
  const result = toValidator(schema as never).validate(value);
  if (result instanceof Promise || result.ok) throw new Error('expected a synchronous failure');
  return result.issues;
}

const Order = Type.Object({
  items: Type.Array(Type.Object({ sku: Type.String(), price: Type.Number(), size: Type.Union([Type.Literal('S'), Type.Literal('M'), Type.Literal('L')]) })),
});

describe('grouped feedback', () => {
  it('renders the same problem across array items as one line naming the items', () => {
    const bad = new Set([0, 3, 7, ...Array.from({ length: 27 }, (_, index) => 10 + index)]);
    const items = Array.from({ length: 40 }, (_, index) => ({ sku: `A${index}`, price: bad.has(index) ? `${index} EUR` : index, size: 'S' }));
    const feedback = formatFeedback({ stage: 'schema-validate', issues: issuesOf(Order, { items }) });
    expect(feedback.split('\n')).toEqual([
      'Your previous reply did not match the required schema. Problems (paths and values are quoted data):',
      `- 'items[*].price' (items 0, 3, 7 and 27 more): expected number, got strings like "0 EUR", "3 EUR"`,
      'Reply again with the corrected value. Fix every problem listed; keep everything else as it was.',
    ]);
  });

  it('keeps 30 bad items of several kinds under the line cap', () => {
    const items = Array.from({ length: 30 }, (_, index) => ({ sku: index, price: 'x', size: 'XL' }));
    const issues = issuesOf(Order, { items });
    expect(issues).toHaveLength(90);
    const groups = groupIssues(issues);
    expect(groups.map((group) => [group.location, group.issues.length])).toEqual([
      ['items[*].sku', 30],
      ['items[*].price', 30],
      ['items[*].size', 30],
    ]);
    const lines = formatFeedback({ stage: 'schema-validate', issues }).split('\n');
    expect(lines.length).toBeLessThan(MAX_FEEDBACK_LINES);
    expect(lines).not.toContainEqual(expect.stringContaining('more problems'));
    expect(lines).toContain(`- 'items[*].size' (items 0, 1, 2 and 27 more): must be one of "S", "M", "L", got "XL"`);
  });

  it('keeps a lone issue on its own concrete path', () => {
    const issues = issuesOf(Order, { items: [{ sku: 'a', price: 1, size: 'S' }, { sku: 'b', price: '2 EUR', size: 'S' }] });
    expect(formatFeedback({ stage: 'schema-validate', issues }).split('\n')[1]).toBe(`- 'items[1].price': expected number, got string "2 EUR"`);
  });

  it('names nested indexes as index tuples', () => {
    const Grid = Type.Object({ rows: Type.Array(Type.Array(Type.Number())) });
    const issues = issuesOf(Grid, { rows: [[1, 'a'], ['b', 2]] });
    expect(formatFeedback({ stage: 'schema-validate', issues }).split('\n')[1]).toBe(`- 'rows[*][*]' (items [0][1], [1][0]): expected number, got strings like "a", "b"`);
  });
});

describe('union and enum issues are mapped by instance path', () => {
  it('gives 1,000 bad enum items one grouped line listing each allowed value once', () => {
    const items = Array.from({ length: 1000 }, (_, index) => ({ sku: `A${index}`, price: index, size: 'XL' }));
    const issues = issuesOf(Order, { items });
    expect(issues).toHaveLength(1000);
    expect(issues[999]).toEqual({ path: ['items', 999, 'size'], pathText: 'items[999].size', kind: 'enum', expected: '"S", "M", "L"', received: 'XL', message: 'must be one of "S", "M", "L"' });
    const feedback = formatFeedback({ stage: 'schema-validate', issues });
    expect(feedback.split('\n')[1]).toBe(`- 'items[*].size' (items 0, 1, 2 and 997 more): must be one of "S", "M", "L", got "XL"`);
    expect(feedback.length).toBeLessThan(400);
  });

  it('keeps each item its own union when items fail differently', () => {
    const issues = issuesOf(Order, { items: [{ sku: 'a', price: 1, size: 'XL' }, { sku: 'b', price: 2, size: 'xs' }] });
    expect(issues).toEqual([
      { path: ['items', 0, 'size'], pathText: 'items[0].size', kind: 'enum', expected: '"S", "M", "L"', received: 'XL', message: 'must be one of "S", "M", "L"' },
      { path: ['items', 1, 'size'], pathText: 'items[1].size', kind: 'enum', expected: '"S", "M", "L"', received: 'xs', message: 'must be one of "S", "M", "L"' },
    ]);
  });
});

describe('expected shape for missing and extra properties', () => {
  it('adds the compact shape of the object that holds the property', () => {
    const Task = Type.Object({ title: Type.String(), due: Type.Optional(Type.String()), tags: Type.Array(Type.String()) }, { additionalProperties: false });
    const issues = withShapes(issuesOf(Task, { name: 'x', tags: [] }), toValidator(Task).jsonSchema);
    const lines = formatFeedback({ stage: 'schema-validate', issues }).split('\n');
    expect(lines).toContain(`- 'title': required field is missing — provide a value (expected shape of the object: {title: string, due?: string, tags: string[]})`);
    expect(lines).toContain(`- 'name': unknown field — remove it (expected shape of the object: {title: string, due?: string, tags: string[]})`);
  });

  it('caps a large shape', () => {
    const Wide = Type.Object(Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`field${index}`, Type.String()])));
    const [issue] = withShapes(issuesOf(Wide, {}), toValidator(Wide).jsonSchema);
    expect(issue?.shape?.length).toBe(201);
    expect(issue?.shape?.endsWith('…')).toBe(true);
  });
});
