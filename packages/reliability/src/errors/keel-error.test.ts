import { describe, expect, it } from 'vitest';
import { reduceError } from './keel-error';

describe('reduceError', () => {
  it('keeps the name and message of an Error', () => {
    expect(reduceError(new TypeError('bad'))).toEqual({ name: 'TypeError', message: 'bad' });
  });

  it('reduces primitives, undefined and symbols', () => {
    expect(reduceError('plain')).toEqual({ name: 'Error', message: 'plain' });
    expect(reduceError(undefined)).toEqual({ name: 'Error', message: 'undefined' });
    expect(reduceError(42n)).toEqual({ name: 'Error', message: '42' });
    expect(reduceError(Symbol('boom'))).toEqual({ name: 'Error', message: 'Symbol(boom)' });
    expect(reduceError(() => 1)).toEqual({ name: 'Error', message: '[function]' });
  });

  it('survives an object whose toString throws', () => {
    const hostile = { toString: () => { throw new Error('no'); } };
    expect(reduceError(hostile)).toEqual({ name: 'Error', message: '[unprintable value]' });
    expect(reduceError(Object.create(null))).toEqual({ name: 'Error', message: '[unprintable value]' });
  });

  it('survives a message whose toString throws, and throwing getters', () => {
    const message = { toString: () => { throw new Error('no'); } };
    expect(reduceError({ name: 'Odd', message })).toEqual({ name: 'Odd', message: '[unprintable value]' });
    const getters = Object.defineProperties({}, {
      name: { get: () => { throw new Error('name'); } },
      message: { get: () => { throw new Error('message'); } },
    });
    expect(reduceError(getters)).toEqual({ name: 'Error', message: '[object Object]' });
  });

  it('survives a Proxy that throws on every trap', () => {
    const trap = () => { throw new Error('trap'); };
    const proxy = new Proxy({}, { get: trap, has: trap, getPrototypeOf: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
    expect(reduceError(proxy)).toEqual({ name: 'Error', message: '[unprintable value]' });
  });

  it('caps a huge message', () => {
    expect(reduceError(new Error('x'.repeat(10_000))).message.length).toBeLessThanOrEqual(2001);
  });
});
