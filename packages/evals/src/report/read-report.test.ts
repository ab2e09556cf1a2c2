import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvalConfigurationError } from '../errors/eval-configuration-error';
import { readReport } from './read-report';

const summary = { passRate: 1, firstPassValidity: 1, reAsksPerItem: 0, loops: 0, errored: 0 };

describe('readReport', () => {
  it('refuses an item whose outcome is not pass, fail or error, such as markup in a hand-edited baseline', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'keel-eval-report-')), 'baseline.json');
    writeFileSync(path, JSON.stringify({ keelEvalReport: 1, summary, items: [{ id: 'a', outcome: '<img src=x onerror=alert(1)>' }] }));
    const refused: unknown = await readReport(path).catch((error: unknown) => error);
    expect(EvalConfigurationError.isInstance(refused) && refused.message).toBe(`the report ${path} has an item without id or outcome (pass, fail or error)`);
    writeFileSync(path, JSON.stringify({ keelEvalReport: 1, summary, items: [{ id: 'a', outcome: 'pass' }] }));
    expect((await readReport(path)).items).toEqual([{ id: 'a', outcome: 'pass' }]);
  });
});
