import { describe, expect, it } from 'vitest';
import { runLongResearch } from './long-research';

describe('the long research example', () => {
  it('reads all 40 pages under a 32k window by compacting what it sends, and keeps every page', async () => {
    const lines: string[] = [];
    const outcome = await runLongResearch(undefined, (line) => lines.push(line));

    expect(outcome.pagesRead).toBe(40);
    expect(outcome.keptPages).toBe(40);
    expect(outcome.text).toMatch(/I read all 40 pages/);
    expect(outcome.compactions.length).toBeGreaterThan(2);
    for (const compaction of outcome.compactions) expect(compaction.after).toBeLessThan(compaction.before);
    expect(lines.some((line) => line.includes('compacted (clear-results)'))).toBe(true);
  });
});
