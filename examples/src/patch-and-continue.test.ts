import { describe, expect, it } from 'vitest';
import { EXPECTED, offlineTarget, runPatchAndContinue } from './patch-and-continue';

describe('the patch and continuation example (offline)', () => {
  it('continues the cut answer, asks for only the bad price, and validates the whole', async () => {
    const lines: string[] = [];
    const target = offlineTarget();
    const value = await runPatchAndContinue(target, (line) => lines.push(line));
    expect(value).toEqual(EXPECTED);
    expect(lines.filter((line) => line.startsWith('attempt '))).toEqual([
      expect.stringMatching(/^attempt 1: truncated, \d+ output tokens$/),
      expect.stringMatching(/^attempt 2: schema-fail via continuation, \d+ output tokens$/),
      expect.stringMatching(/^attempt 3: ok via patch, \d+ output tokens$/),
    ]);
    const requests = (target.provider as unknown as { requests: readonly { continueFrom?: string; maxTokens?: number }[] }).requests;
    expect(requests[1]?.continueFrom?.length).toBeGreaterThan(1000);
    expect(requests[1]?.maxTokens).toBe(2400);
  });
});
