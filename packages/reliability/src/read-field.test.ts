import { describe, expect, it } from 'vitest';
import { errorMessageOf, readField } from './read-field';

const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('trap');
    },
  },
);

describe('readField', () => {
  it('reads a field of an object, and nothing of anything else', () => {
    expect(readField({ status: 429 }, 'status')).toBe(429);
    expect(readField(null, 'status')).toBeUndefined();
    expect(readField('text', 'length')).toBeUndefined();
    expect(readField(undefined, 'status')).toBeUndefined();
  });

  it('reads a throwing getter or Proxy trap as absent', () => {
    const getter = Object.defineProperty({}, 'status', {
      get() {
        throw new Error('getter');
      },
    });
    expect(readField(getter, 'status')).toBeUndefined();
    expect(readField(hostile, 'status')).toBeUndefined();
  });
});

describe('errorMessageOf', () => {
  it("uses the error's message, else the value as a string", () => {
    expect(errorMessageOf(new Error('boom'))).toBe('boom');
    expect(errorMessageOf({ message: '' , toString: () => 'as text' })).toBe('as text');
    expect(errorMessageOf('plain')).toBe('plain');
    expect(errorMessageOf(42)).toBe('42');
  });

  it('never throws, even for a value that cannot be printed', () => {
    expect(errorMessageOf(hostile)).toBe('[unprintable error]');
    expect(errorMessageOf(Object.create(null))).toBe('[unprintable error]');
  });
});
