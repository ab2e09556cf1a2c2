import { readFileSync } from 'node:fs';
import { scriptedModel } from '@keel/core/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { CassetteError } from '../errors/cassette-error';
import { cassette } from './cassette';
import { ask, newCassettePath, offline } from '../testing/cassette-fixtures';

let path: string;
beforeEach(() => {
  path = newCassettePath();
});

describe('cassette() matches only what the run itself made as volatile', () => {
  it('misses a request whose own ids or date-times differ from the recording: another order is another answer', async () => {
    const order = (id: string) => ask(`Where is order ${id}? It was placed 2026-11-25T17:00:00Z.`);
    await cassette(scriptedModel('Order 3f2b… shipped.'), { path, mode: 'record' }).generate(order('3f2b8c1e-9d4a-4b7e-8f00-1234567890ab'), {});
    const other = await cassette(offline, { path, mode: 'replay' }).generate(order('0c1d2e3f-4a5b-4c6d-8e7f-abcdefabcdef'), {}).catch((error: unknown) => error);
    expect(CassetteError.isInstance(other) && other.problem).toBe('unrecorded');
    expect((other as Error).message).toContain('0c1d2e3f-4a5b-4c6d-8e7f-abcdefabcdef');
    const later = await cassette(offline, { path, mode: 'replay' }).generate(ask('Where is order 3f2b8c1e-9d4a-4b7e-8f00-1234567890ab? It was placed 2026-11-26T08:00:00Z.'), {}).catch((error: unknown) => error);
    expect(CassetteError.isInstance(later) && later.problem).toBe('unrecorded');
    // The same order replays.
    expect((await cassette(offline, { path, mode: 'replay' }).generate(order('3f2b8c1e-9d4a-4b7e-8f00-1234567890ab'), {})).text).toBe('Order 3f2b… shipped.');
  });

  it('reads the text the test names as volatile as <volatile>, and refuses patterns that are not regular expressions', async () => {
    const today = (now: string) => ask('Weather?', { system: `Today is ${now}. Answer briefly.` });
    await cassette(scriptedModel('Mild.'), { path, mode: 'record', volatile: [/Today is \S+\./] }).generate(today('2026-11-25T17:00:00Z'), {});
    expect((await cassette(offline, { path, mode: 'replay', volatile: [/Today is \S+\./] }).generate(today('2026-11-26T09:30:12.123Z'), {})).text).toBe('Mild.');
    expect(readFileSync(path, 'utf8')).toContain('<volatile> Answer briefly.');
    await expect(cassette(offline, { path, mode: 'replay' }).generate(today('2026-11-26T09:30:12.123Z'), {})).rejects.toMatchObject({ name: 'CassetteError', problem: 'unrecorded' });
    expect(() => cassette(offline, { path, mode: 'replay', volatile: ['Today' as unknown as RegExp] })).toThrow('options.volatile');
  });
});
