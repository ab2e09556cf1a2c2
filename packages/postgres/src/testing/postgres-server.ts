import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findPostgresBin } from '../../../../scripts/ensure-postgres.mjs';
import { freePort } from '../../../redis/src/testing/free-port';

/** A real PostgreSQL server started for a test file, on 127.0.0.1 and a free port, in a temporary directory. */
export interface TestPostgresServer {
  readonly port: number;
  /** `postgres://keel@127.0.0.1:<port>/postgres` (trust authentication: no password). */
  readonly url: string;
  /** Kills the server (SIGKILL: no shutdown), as a crash would; its data stays. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. */
  stop(): Promise<void>;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The command line that runs `program` as the user PostgreSQL runs as: `postgres` when this process is root (it refuses to run as root). */
function asServerUser(program: string, args: readonly string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, [...args]];
}

/** The ids of the `postgres` user, which the server runs as when this process is root. */
function serverUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isSafeInteger(uid) || uid <= 0 || !Number.isSafeInteger(gid)) throw new Error('there is no postgres user to run PostgreSQL as (PostgreSQL refuses to run as root): install the postgresql package, which creates it');
  return { uid, gid };
}

/** The processes whose parent is `pid` (Linux), so a killed server's backends are killed with it. */
function childrenOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    try {
      // "<pid> (<command>) <state> <ppid> ...": the command may hold spaces, so read after its ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return parent === pid ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** The server's own process id, from its pid file (under `runuser`, the child is runuser, not the server). */
function serverPid(dataDirectory: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(test: () => boolean | Promise<boolean>, timeoutMs: number, failure: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await test()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(failure());
}

/** Answers `SELECT 1`: the server accepts connections. */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Starts a PostgreSQL server (Debian's `postgresql` package, or `initdb` and `postgres` on PATH)
 * for a test file: `initdb` into a fresh temporary directory, then `postgres` on a free port of
 * 127.0.0.1 with its socket in that directory. Commits survive the server's process being killed
 * (what the fault tests do); `fsync` is off, since only a machine crash would need it. As root, the directory is handed to the `postgres` user and the programs run as it.
 * Fails, never skips, when PostgreSQL is missing.
 */
export async function startPostgresServer(): Promise<TestPostgresServer> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error('PostgreSQL is not installed: the postgres tests need a real server (apt-get install -y postgresql, or run node scripts/ensure-postgres.mjs)');
  const directory = mkdtempSync(join(tmpdir(), 'keel-postgres-'));
  const data = join(directory, 'data');
  const socket = join(directory, 'socket');
  mkdirSync(socket);
  if (isRoot) {
    const { uid, gid } = serverUser();
    for (const path of [directory, socket]) chownSync(path, uid, gid);
  }
  const [initProgram, initArgs] = asServerUser(join(bin, 'initdb'), ['-D', data, '-U', 'keel', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const init = spawnSync(initProgram, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) {
    rmSync(directory, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.error?.message ?? `exit code ${init.status}`}): ${init.stderr}`);
  }
  const port = await freePort();
  const url = `postgres://keel@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  let output = '';
  const launch = async () => {
    const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${socket}`, 'fsync=off', 'full_page_writes=off', 'max_connections=200'];
    const [program, args] = asServerUser(join(bin, 'postgres'), ['-D', data, '-p', String(port), ...settings.flatMap((setting) => ['-c', setting])]);
    output = '';
    const started = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    started.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child = started;
    await waitUntil(
      async () => {
        if (started.exitCode !== null) throw new Error(`postgres exited with code ${started.exitCode}: ${output}`);
        return answers(url);
      },
      15_000,
      () => `postgres on port ${port} did not accept connections within 15 s: ${output}`,
    );
  };
  const signal = async (name: NodeJS.Signals) => {
    const pid = serverPid(data);
    if (pid !== undefined && alive(pid)) {
      // A postmaster killed outright leaves its backends behind: they go with it.
      const backends = name === 'SIGKILL' ? childrenOf(pid) : [];
      process.kill(pid, name);
      for (const backend of backends) {
        try {
          process.kill(backend, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await waitUntil(() => !alive(pid) && !backends.some(alive), 15_000, () => `postgres (pid ${pid}) did not stop after ${name}`);
    }
    const running = child;
    if (running && running.exitCode === null && running.signalCode === null) await new Promise((resolve) => running.once('exit', resolve));
  };
  try {
    await launch();
  } catch (error) {
    await signal('SIGKILL').catch(() => undefined);
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url,
    kill: () => signal('SIGKILL'),
    async restart() {
      await signal('SIGKILL');
      await launch();
    },
    async stop() {
      try {
        // SIGINT: fast shutdown (connections are closed, no checkpoint waits on clients).
        await signal('SIGINT');
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
