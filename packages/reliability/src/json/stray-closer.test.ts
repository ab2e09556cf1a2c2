import { describe, expect, it } from 'vitest';
import { extractJsonCandidates } from './extract-json';

/** The values a reply reads as, or the defect it is refused for. */
function readings(text: string): unknown {
  const found = extractJsonCandidates(text);
  return found.candidates.length > 0 ? found.candidates.map((candidate) => candidate.value) : { refused: found.failure?.defect };
}

describe('a closer after the value that closes nothing', () => {
  it.each([
    ['{"a": {"b": 1}, "c": 2}}', 'object'],
    ['[[1, 2], 3]]', 'array'],
    ['```json\n{"a": {"b": 1}, "c": 2}}\n```', 'fenced object'],
    ["{'a': {'b': 1}, 'c': 2}}", 'object in single quotes'],
    ['{"a": {"b": "x}, y"}, "c": 2}}', 'object with a closer inside a string'],
  ])('refuses %j (%s): an earlier closer may have closed too early', (text) => {
    expect(readings(text)).toEqual({ refused: 'syntax' });
  });

  it.each([
    ['{"a": 1}}', { a: 1 }],
    ['{"a": 1}}]}', { a: 1 }],
    ['{"a": {"b": 1}}}', { a: { b: 1 } }],
    ['[{"a":1}, {"b":2}]]', [{ a: 1 }, { b: 2 }]],
    ['{"a": [{"b": 1}, 2]}}', { a: [{ b: 1 }, 2] }],
  ])('reads %j one way: no closer inside it can move to the end', (text, value) => {
    expect(readings(text)).toEqual([value]);
  });
});
