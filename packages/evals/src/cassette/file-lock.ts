import { readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as wait } from 'node:timers/promises';
import { CassetteError } from '../errors/cassette-error';

/** How long a writer waits for another's lock before giving up, in milliseconds. */
const LOCK_PATIENCE_MS = 15_000;
const RETRY_MS = 5;
/**
 * How old a takeover file may get before it is removed whoever owns it: taking a lock over takes
 * a moment, so one this old was left by a process that died before it wrote its pid, or whose pid
 * another process has since been given.
 */
const TAKEOVER_STALE_MS = 5_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** Creates `file` holding this process's pid, unless it exists. */
async function create(file: string): Promise<boolean> {
  try {
    await writeFile(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    return false;
  }
}

/** Whether `file` names an owner that is gone (not while it is empty: its owner may be writing its pid). */
async function ownerDied(file: string): Promise<boolean> {
  const owner = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
  return Number.isInteger(owner) && owner > 0 && !alive(owner);
}

/** Removes a takeover file whose owner died, or that is older than any takeover takes. */
async function clearStaleTakeover(takeover: string): Promise<void> {
  const age = await stat(takeover).then((found) => Date.now() - found.mtimeMs, () => 0);
  if (age > TAKEOVER_STALE_MS || (await ownerDied(takeover))) await unlink(takeover).catch(() => undefined);
}

/**
 * Removes a lock left by a dead process, holding `<lock>.takeover` (created exclusively) while it
 * checks the owner again and removes the lock. Writers who all read the dead owner's pid take
 * turns here, and any after the first find the lock gone or taken by a live writer: none removes
 * a lock another has just taken.
 */
async function takeOver(lock: string): Promise<void> {
  const takeover = `${lock}.takeover`;
  if (!(await create(takeover))) return clearStaleTakeover(takeover);
  try {
    if (await ownerDied(lock)) await unlink(lock).catch(() => undefined);
  } finally {
    await unlink(takeover).catch(() => undefined);
  }
}

/** Takes the lock if free; takes over a lock whose process is gone (killed mid-write) and tries again. */
async function tryLock(lock: string): Promise<boolean> {
  if (await create(lock)) return true;
  if (await ownerDied(lock)) await takeOver(lock);
  return false;
}

/**
 * Runs `work` holding `<path>.lock` (created exclusively, holding the owner's pid), so writers in
 * other processes and other cassettes of this one take turns. A lock left by a dead process is
 * taken over, by one writer at a time (see {@link takeOver}).
 * @throws {CassetteError} `locked` when a live owner keeps it longer than 15 seconds.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_PATIENCE_MS;
  for (;;) {
    let held: boolean;
    try {
      held = await tryLock(lock);
    } catch (error) {
      throw new CassetteError({ path, problem: 'unwritable', detail: `its lock ${lock} cannot be created (${(error as Error).message})`, cause: error });
    }
    if (held) break;
    if (Date.now() > deadline) throw new CassetteError({ path, problem: 'locked', detail: `another writer held ${lock} for more than ${LOCK_PATIENCE_MS / 1000} seconds` });
    await wait(RETRY_MS);
  }
  try {
    return await work();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}
