import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvalConfigurationError } from '../errors/eval-configuration-error';
import { readReport } from './read-report';

const summary = { passRate: 1, firstPassValidity: 1, reAsksPerItem: 0, loops: 0, errored: 0, dollarsPerValidOutput: null, scores: { 'exact-match': { mean: 1, passRate: 1 } } };

describe('readReport', () => {
  it('refuses an item whose outcome is not pass, fail or error, such as markup in a hand-edited baseline', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'keel-eval-report-')), 'baseline.json');
    writeFileSync(path, JSON.stringify({ keelEvalReport: 1, summary, items: [{ id: 'a', outcome: '<img src=x onerror=alert(1)>' }] }));
    const refused: unknown = await readReport(path).catch((error: unknown) => error);
    expect(EvalConfigurationError.isInstance(refused) && refused.message).toBe(`the report ${path} has an item without id or outcome (pass, fail or error)`);
    writeFileSync(path, JSON.stringify({ keelEvalReport: 1, summary, items: [{ id: 'a', outcome: 'pass' }] }));
    expect((await readReport(path)).items).toEqual([{ id: 'a', outcome: 'pass' }]);
  });

  it('refuses a report missing any field a comparison reads, naming it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'keel-eval-report-')), 'baseline.json');
    const refusal = async (report: unknown) => {
      writeFileSync(path, JSON.stringify(report));
      const refused: unknown = await readReport(path).catch((error: unknown) => error);
      return EvalConfigurationError.isInstance(refused) ? refused.message.replace(`the report ${path} `, '') : 'accepted';
    };
    const items = [{ id: 'a', outcome: 'pass', input: 'hi' }];
    const { scores: _scores, ...noScores } = summary;
    expect(await refusal({ keelEvalReport: 1, summary: noScores, items })).toBe('has no summary.scores (an object of mean scores by scorer, {} when there are none)');
    expect(await refusal({ keelEvalReport: 1, summary: { ...summary, scores: { judge: { passRate: 1 } } }, items })).toBe('has a summary.scores.judge without a mean (a number)');
    expect(await refusal({ keelEvalReport: 1, summary: { ...summary, loops: '0' }, items })).toBe('has no summary.loops (a number)');
    expect(await refusal({ keelEvalReport: 1, summary: { ...summary, dollarsPerValidOutput: 'cheap' }, items })).toBe('has a summary.dollarsPerValidOutput that is neither a number nor null');
    expect(await refusal({ keelEvalReport: 1, summary, items: [{ id: 'a', outcome: 'pass', input: { text: 'hi' } }] })).toBe('has an item (items[0], a) whose input is not text');
    expect(await refusal({ keelEvalReport: 1, summary: { ...summary, scores: {} }, items })).toBe('accepted');
  });
});
