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
    .filter((fields) => fields.length >= 4 && /^\d+$/.test(fields[0] ?? ''))
    .map((fields) => ({ pid: Number(fields[0]), parent: Number(fields[1]), zombie: (fields[3] ?? '').startsWith('Z'), start: '' }));
}

/** The living (not zombie) descendants of the processes `roots`, read from one table: children, their children, and so on. */
function descendantsIn(table: readonly ProcessEntry[], roots: readonly number[]): TreeMember[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table) {
    const list = children.get(entry.parent) ?? [];
    list.push(entry);
    children.set(entry.parent, list);
  }
  const found: TreeMember[] = [];
  const queue = [...roots];
  const seen = new Set<number>(roots);
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

/** The living (not zombie) descendants of a process: children, their children, and so on. */
export async function descendantsOf(pid: number): Promise<readonly TreeMember[]> {
  return descendantsIn(await processTable(), [pid]);
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

/** Sends a signal to each member, in order; a process gone meanwhile is no error. */
function signalAll(members: readonly TreeMember[], signal: NodeJS.Signals): void {
  for (const member of members) {
    try {
      process.kill(member.pid, signal);
    } catch {
      // Gone between the reading and the signal.
    }
  }
}

/** This process's entry as a tree member (its start read from `/proc` where there is one). */
export async function memberOf(pid: number): Promise<TreeMember> {
  return { pid, start: (await readProcStat(pid))?.start ?? '' };
}

/** What a reading of the table says of the known members. */
interface Reading {
  /** Members that run and started no member that still runs: the ones to end first. */
  readonly leaves: readonly TreeMember[];
  /** Members not yet gone: running, or exited but not yet reaped by a parent that will reap them (a member, or this process). */
  readonly left: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The processes of one server, as they change: its root, every process known to belong (kept once
 * seen) and their living descendants, read again at each look (a process started meanwhile is
 * found too). A process is gone once it is reaped: an exited process whose parent is still a
 * member (or this process) is waited for, so none is left behind as a zombie for another process
 * to collect, and `close()` resolves only once the whole tree has left the process table.
 */
export class ServerProcesses {
  private readonly known = new Map<number, TreeMember>();

  constructor(root: TreeMember) {
    this.known.set(root.pid, root);
  }

  /** Reads the table once: the members to end first, and how many are not gone. */
  async read(): Promise<Reading> {
    const table = await processTable();
    const byPid = new Map(table.map((entry) => [entry.pid, entry]));
    const same = (member: TreeMember) => byPid.get(member.pid)?.start === member.start;
    const running = new Set([...this.known.values()].filter((member) => same(member) && !(byPid.get(member.pid) as ProcessEntry).zombie).map((member) => member.pid));
    for (const member of descendantsIn(table, [...running])) {
      this.known.set(member.pid, member);
      running.add(member.pid);
    }
    const parents = new Set([...running].map((pid) => (byPid.get(pid) as ProcessEntry).parent));
    const leaves = [...running].filter((pid) => !parents.has(pid)).map((pid) => this.known.get(pid) as TreeMember);
    let left = 0;
    for (const member of this.known.values()) {
      const entry = byPid.get(member.pid);
      if (entry && same(member) && (!entry.zombie || entry.parent === process.pid || running.has(entry.parent))) left++;
    }
    return { leaves, left };
  }

  /** Resolves true once every member is gone, or false after `ms`; with a signal, sends it to each leaf as it becomes one. */
  private async settle(ms: number, signal?: NodeJS.Signals): Promise<boolean> {
    const until = Date.now() + ms;
    const signalled = new Set<number>();
    for (;;) {
      const { leaves, left } = await this.read();
      if (left === 0) return true;
      if (Date.now() >= until) return false;
      if (signal) signalAll(leaves.filter((leaf) => !signalled.has(leaf.pid)), signal);
      for (const leaf of leaves) signalled.add(leaf.pid);
      await pause(20);
    }
  }

  /**
   * Ends them all: the members are read first, then stdin is closed (a server exits on end of
   * input); whatever still runs is then sent SIGTERM, then SIGKILL, `graceMs` apart, from the
   * leaves up (the server before its launcher, which reaps it and exits, or is signalled once the
   * server is gone). Resolves when none is left.
   */
  async end(closeInput: () => void, graceMs: number): Promise<void> {
    await this.read();
    closeInput();
    if (await this.settle(graceMs)) return;
    if (await this.settle(graceMs, 'SIGTERM')) return;
    await this.settle(graceMs, 'SIGKILL');
  }
}
