import { describe, expect, it } from 'vitest';
import { toolInputOf } from './tool-input-of';

describe('toolInputOf', () => {
  it('passes a plain object through as it is', () => {
    const input = { city: 'Oslo' };
    expect(toolInputOf(input)).toBe(input);
  });

  it('parses raw argument text that holds an object', () => {
    expect(toolInputOf('{"city":"Oslo","days":3}')).toEqual({ city: 'Oslo', days: 3 });
  });

  it('sends {} for anything that is not an object: broken JSON, arrays, scalars, null', () => {
    for (const value of ['{"city":', '[1,2]', '"text"', '42', 'null', [1, 2], null, undefined, 42, 'not json at all']) {
      expect(toolInputOf(value)).toEqual({});
    }
  });
});
