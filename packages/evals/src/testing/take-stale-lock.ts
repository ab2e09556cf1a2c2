/**
 * A process that appends to a shared file under its lock, for the test of many processes taking
 * over a stale lock together: `node --import tsx --conditions=@keel/source take-stale-lock.ts
 * <file> <writers>`. Prints `ready`, waits for a line on its input (the test leaves the stale lock
 * first), then runs `<writers>` writers at once. Each appends `<pid>-<n>` to the JSON list in
 * `<file>` and, while it holds the lock, keeps `<file>.holder` (created exclusively): a second
 * holder at the same time prints `overlap`. Prints `done` at the end.
 */
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as wait } from 'node:timers/promises';
import { withFileLock } from '../cassette/file-lock';

const [path, writers] = process.argv.slice(2);
if (path === undefined || writers === undefined) throw new Error('usage: take-stale-lock.ts <file> <writers>');
const holder = `${path}.holder`;

async function append(entry: string): Promise<void> {
  await withFileLock(path as string, async () => {
    await writeFile(holder, String(process.pid), { flag: 'wx' }).catch(() => process.stdout.write('overlap\n'));
    const list = JSON.parse(await readFile(path as string, 'utf8').catch(() => '[]')) as string[];
    await wait(1);
    await writeFile(path as string, JSON.stringify([...list, entry]));
    await unlink(holder).catch(() => undefined);
  });
}

process.stdout.write('ready\n');
process.stdin.once('data', () => {
  process.stdin.pause();
  void Promise.all(Array.from({ length: Number(writers) }, (_, index) => append(`${process.pid}-${index}`))).then(() => process.stdout.write('done\n'));
});
