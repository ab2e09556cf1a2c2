import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceFileReader } from '../view/trace-file-reader';
import { fileAppender } from './file-appender';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'keel-file-appender-')), 'runs.jsonl');
const line = (runId: string) => `${JSON.stringify({ event: 'step.start', payload: { runId, step: 1, timestamp: 1 } })}\n`;

describe('fileAppender', () => {
  it('appends in call order, one whole line after another, many callers at once', async () => {
    const path = fresh();
    const appender = fileAppender(path);
    await Promise.all(Array.from({ length: 200 }, (_, index) => appender.append(line(`run-${index}`) + line(`run-${index}-b`))));
    const runs = readFileSync(path, 'utf8').trimEnd().split('\n').map((text) => (JSON.parse(text) as { payload: { runId: string } }).payload.runId);
    expect(runs).toEqual(Array.from({ length: 200 }, (_, index) => [`run-${index}`, `run-${index}-b`]).flat());
  });

  it('is one appender per file, however the path is spelled', () => {
    const path = fresh();
    expect(fileAppender(join(path, '..', 'runs.jsonl'))).toBe(fileAppender(path));
  });

  it('ends a line cut short by a crash before appending, so the reader loses only that line', async () => {
    const path = fresh();
    writeFileSync(path, `${line('before')}{"event":"step.start","payload":{"runId":"cut`);
    await fileAppender(path).append(line('after') + line('after-2'));
    const snapshot = await new TraceFileReader(path).read();
    expect(snapshot.events.map((event) => event.payload.runId)).toEqual(['before', 'after', 'after-2']);
    expect(snapshot.skippedLines).toBe(1);
  });

  it('does the same when writing synchronously at exit, before or after asynchronous appends', async () => {
    const path = fresh();
    writeFileSync(path, '{"event":"run.st');
    const appender = fileAppender(path);
    appender.appendNow(line('at-exit'));
    await appender.append(line('later'));
    appender.appendNow(line('at-exit-2'));
    const snapshot = await new TraceFileReader(path).read();
    expect(snapshot.events.map((event) => event.payload.runId)).toEqual(['at-exit', 'later', 'at-exit-2']);
    expect(snapshot.skippedLines).toBe(1);
  });

  it('makes a missing folder, and rejects with the file system error where no folder can be made', async () => {
    const base = mkdtempSync(join(tmpdir(), 'keel-file-appender-'));
    const nested = join(base, 'a', 'b', 'runs.jsonl');
    await fileAppender(nested).append(line('nested'));
    expect(readFileSync(nested, 'utf8')).toBe(line('nested'));
    writeFileSync(join(base, 'a-file'), '');
    const impossible = fileAppender(join(base, 'a-file', 'runs.jsonl'));
    await expect(impossible.append(line('x'))).rejects.toMatchObject({ code: expect.stringMatching(/^(ENOTDIR|EEXIST)$/) });
    await expect(impossible.idle()).resolves.toBeUndefined();
    expect(() => impossible.appendNow(line('x'))).toThrow(/ENOTDIR|EEXIST/);
  });
});
