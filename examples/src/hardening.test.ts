import { describe, expect, it } from 'vitest';
import { budgetUnderFire, deadline, stuckTool } from './hardening';

describe('the hardening example', () => {
  const quiet = () => undefined;

  it('a budget holds against ten concurrent re-asks: 4 calls, 1200 tokens', async () => {
    expect(await budgetUnderFire(quiet)).toEqual({ calls: 4, tokens: 1200 });
  });

  it('a stuck tool ends with tool-timeout and the run answers', async () => {
    expect(await stuckTool(quiet)).toBe('tool-timeout');
  });

  it('a run past its deadline ends timed out', async () => {
    expect(await deadline(quiet)).toBe(true);
  });
});
