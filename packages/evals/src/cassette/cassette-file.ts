import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CassetteError } from '../errors/cassette-error';
import type { CassetteData } from './cassette-format';
import { withFileLock } from './file-lock';
import { parseCassette } from './parse-cassette';

const isMissing = (error: unknown) => (error as { code?: unknown } | null)?.code === 'ENOENT';

/** Reads and checks a cassette file; `undefined` when there is none. */
export function readCassetteFile(path: string): CassetteData | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new CassetteError({ path, problem: 'unreadable', detail: `cannot be read (${(error as Error).message})`, cause: error });
  }
  return parseCassette(path, text);
}

async function readCurrent(path: string): Promise<CassetteData | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new CassetteError({ path, problem: 'unreadable', detail: `cannot be read (${(error as Error).message})`, cause: error });
  }
  return parseCassette(path, text);
}

/** Writes `text` to a temporary file beside `path`, flushes it to disk, then renames it over `path`. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new CassetteError({ path, problem: 'unwritable', detail: `cannot be written (${(error as Error).message})`, cause: error });
  }
}

/**
 * Rewrites a cassette file under its lock: `next` gets what the file holds now (another process
 * may have added to it; `undefined` when `replace()`, asked once the lock is held, says to start the
 * file afresh: it is not read then, corrupt or not) and returns the new content. The file is replaced atomically, so a process
 * killed mid-write leaves the previous complete file, never half of one.
 */
export async function updateCassetteFile(path: string, replace: () => boolean, next: (current: CassetteData | undefined) => CassetteData): Promise<void> {
  await mkdir(dirname(path), { recursive: true }).catch((error: unknown) => {
    throw new CassetteError({ path, problem: 'unwritable', detail: `its folder cannot be created (${(error as Error).message})`, cause: error });
  });
  await withFileLock(path, async () => {
    const data = next(replace() ? undefined : await readCurrent(path));
    await writeAtomically(path, `${JSON.stringify(data, null, 2)}\n`);
  });
}
