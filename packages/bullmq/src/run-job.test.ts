import { describe, expect, it } from 'vitest';
import { isRunJobData } from './run-job';

describe('isRunJobData', () => {
  it('accepts every run input an agent takes: a string, { message }, or messages', () => {
    expect(isRunJobData({ agent: 'refunds', input: 'Refund order 42?' })).toBe(true);
    expect(isRunJobData({ agent: 'refunds', input: { message: 'Refund order 42?' } })).toBe(true);
    expect(isRunJobData({ agent: 'refunds', input: [{ role: 'user', content: 'Refund order 42?' }] })).toBe(true);
  });

  it('refuses anything else', () => {
    expect(isRunJobData({ agent: 'refunds', input: { text: 'Refund order 42?' } })).toBe(false);
    expect(isRunJobData({ agent: 'refunds', input: 42 })).toBe(false);
    expect(isRunJobData({ input: 'hi' })).toBe(false);
  });
});
