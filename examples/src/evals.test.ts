import { describe, expect, it } from 'vitest';
import { runEvals } from './evals';

describe('the evals example (offline)', () => {
  it('reports the figures, and names the regressions of the changed agent', async () => {
    const lines: string[] = [];
    const { baseline, changed, comparison } = await runEvals(undefined, (line) => lines.push(line));
    expect(baseline.summary).toMatchObject({ items: 6, passed: 6, reAsksPerItem: 1 / 6, repairs: { 'trailing-comma': 1 } });
    expect(baseline.summary.firstPassValidity).toBeCloseTo(5 / 6, 12);
    expect(lines[0]).toMatch(/^pass rate 100%, first-pass validity 83%, re-asks per item 0\.17, repairs \{"trailing-comma":1\}, 7 calls, \$0\.\d{6} per valid output$/);
    expect(changed.items.find((item) => item.id === 'login')?.outcome).toBe('fail');
    expect(comparison.ok).toBe(false);
    expect(lines[1]).toContain('regression: pass rate fell from 100.0% to 83.3%');
    expect(lines[1]).toContain('regression: item login passed in the baseline and now fails');
  });
});
