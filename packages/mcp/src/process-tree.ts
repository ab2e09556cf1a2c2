import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/** One process as the table shows it; `start` tells a process from a later one given the same id. */
interface ProcessEntry {
  readonly pid: number;
  readonly parent: number;
  readonly zombie: boolean;
  readonly start: string;
}

/** A process known to be part of a tree: its id, and its start to recognise it later. */
export interface TreeMember {
  readonly pid: number;
  readonly start: string;
}

/** Reads `/proc/<pid>/stat` (Linux): the command name may hold spaces and parentheses, so read after the last `)`. */
async function readProcStat(pid: number): Promise<ProcessEntry | undefined> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state, ppid, pgrp, session, tty, tpgid, flags, 3 fault counters and 4 times, ... starttime (20th).
  return { pid, parent: Number(fields[1]), zombie: fields[0] === 'Z' || fields[0] === 'X', start: fields[19] ?? '' };
}

let procReadable: Promise<boolean> | undefined;

/** Whether this system has a readable `/proc` (Linux), checked once. */
const hasProc = (): Promise<boolean> =>
  (procReadable ??= readFile('/proc/self/stat', 'utf8').then(
    () => true,
    () => false,
  ));

/** Every process the system shows: from `/proc` on Linux, else from `ps`. */
async function processTable(): Promise<readonly ProcessEntry[]> {
  if (await hasProc()) {
    const names = await readdir('/proc').catch(() => [] as string[]);
    const entries = await Promise.all(names.filter((name) => /^\d+$/.test(name)).map((name) => readProcStat(Number(name))));
    return entries.filter((entry): entry is ProcessEntry => entry !== undefined);
  }
  const listing = await new Promise<string>((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid=,stat='], (error, stdout) => resolve(error ? '' : stdout));
  });
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 3 && /^\d+$/.test(fields[0] ?? ''))
    .map((fields) => ({ pid: Number(fields[0]), parent: Number(fields[1]), zombie: (fields[2] ?? '').startsWith('Z'), start: '' }));
}

/** The living (not zombie) descendants of a process: children, their children, and so on. */
export async function descendantsOf(pid: number): Promise<readonly TreeMember[]> {
  const table = await processTable();
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table) {
    const list = children.get(entry.parent) ?? [];
    list.push(entry);
    children.set(entry.parent, list);
  }
  const found: TreeMember[] = [];
  const queue = [pid];
  const seen = new Set<number>([pid]);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      queue.push(child.pid);
      if (!child.zombie) found.push({ pid: child.pid, start: child.start });
    }
  }
  return found;
}

/** The ids of the living descendants of a process (for tests and checks: nothing left behind). */
export async function livingDescendants(pid: number): Promise<number[]> {
  return (await descendantsOf(pid)).map((member) => member.pid);
}

/** Whether this member of a tree still runs (the same process: not a zombie, not a later one with its id). */
export async function isAlive(member: TreeMember): Promise<boolean> {
  if (await hasProc()) {
    const entry = await readProcStat(member.pid);
    return entry !== undefined && !entry.zombie && entry.start === member.start;
  }
  try {
    process.kill(member.pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends a signal to each member still alive; a process gone meanwhile is no error. */
export async function signalAll(members: readonly TreeMember[], signal: NodeJS.Signals): Promise<void> {
  for (const member of members) {
    if (!(await isAlive(member))) continue;
    try {
      process.kill(member.pid, signal);
    } catch {
      // Gone between the check and the signal.
    }
  }
}

/** Resolves once no member is alive, or after `ms` (then false). */
export async function allEnded(members: readonly TreeMember[], ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    const alive = await Promise.all(members.map(isAlive));
    if (!alive.includes(true)) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** This process's entry as a tree member (its start read from `/proc` where there is one). */
export async function memberOf(pid: number): Promise<TreeMember> {
  return { pid, start: (await readProcStat(pid))?.start ?? '' };
}

/**
 * Ends a process and everything it started: the tree is read first (once a launcher such as `npx`
 * or a shell exits, its children are no longer found under it), then stdin is closed (a server
 * exits on end of input), then the living members are sent SIGTERM, then SIGKILL, `graceMs` apart.
 * Resolves when none is left.
 */
export async function endTree(root: TreeMember, closeInput: () => void, graceMs: number): Promise<void> {
  let members = [root, ...(await descendantsOf(root.pid))];
  closeInput();
  if (await allEnded(members, graceMs)) return;
  const later = (await isAlive(root)) ? await descendantsOf(root.pid) : [];
  members = [...members, ...later.filter((member) => !members.some((known) => known.pid === member.pid))];
  await signalAll(members, 'SIGTERM');
  if (await allEnded(members, graceMs)) return;
  await signalAll(members, 'SIGKILL');
  await allEnded(members, graceMs);
}
