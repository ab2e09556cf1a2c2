import { readFile, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as wait } from 'node:timers/promises';
import { CassetteFileError } from '../errors/cassette-file-error';

/** How long a writer waits for another's lock before giving up, in milliseconds. */
const LOCK_PATIENCE_MS = 15_000;
const RETRY_MS = 5;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** Takes the lock if free; removes a lock whose process is gone (killed mid-write) and tries again. */
async function tryLock(lock: string): Promise<boolean> {
  try {
    await writeFile(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  const owner = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
  if (Number.isInteger(owner) && owner > 0 && !alive(owner)) await unlink(lock).catch(() => undefined);
  return false;
}

/**
 * Runs `work` holding `<path>.lock` (created exclusively, holding the owner's pid), so writers in
 * other processes and other cassettes of this one take turns. A lock left by a dead process is
 * taken over.
 * @throws {CassetteFileError} `locked` when a live owner keeps it longer than 15 seconds.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_PATIENCE_MS;
  for (;;) {
    let held: boolean;
    try {
      held = await tryLock(lock);
    } catch (error) {
      throw new CassetteFileError({ path, problem: 'unwritable', detail: `its lock ${lock} cannot be created (${(error as Error).message})`, cause: error });
    }
    if (held) break;
    if (Date.now() > deadline) throw new CassetteFileError({ path, problem: 'locked', detail: `another writer held ${lock} for more than ${LOCK_PATIENCE_MS / 1000} seconds` });
    await wait(RETRY_MS);
  }
  try {
    return await work();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}
