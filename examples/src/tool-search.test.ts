import { describe, expect, it } from 'vitest';
import { runToolSearch } from './tool-search';

describe('the tool search example', () => {
  it('sends two of 122 tools at first, finds refund_order with tool_search and calls it from the next step', async () => {
    const lines: string[] = [];
    const outcome = await runToolSearch(undefined, (line) => lines.push(line));

    expect(outcome.text).toBe('Order A-1 was refunded $50.');
    expect(outcome.calls).toEqual(['lookup_order', 'tool_search', 'refund_order']);
    expect(outcome.loaded).toContain('refund_order');
    // lookup_order and tool_search; then the tools the search found as well.
    expect(outcome.sentPerStep.slice(0, 2)).toEqual([2, 2]);
    expect(outcome.sentPerStep[2]).toBeGreaterThan(2);
    expect(outcome.sentPerStep[2]).toBeLessThanOrEqual(7);
    expect(lines.some((line) => line.startsWith('step 2: loaded refund_order'))).toBe(true);
  });
});
