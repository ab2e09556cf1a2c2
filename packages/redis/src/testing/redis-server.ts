import { type ChildProcess, spawn } from 'node:child_process';
import { Socket } from 'node:net';
import { freePort } from './free-port';

/** A real redis-server started for a test file, on 127.0.0.1 and a free port. */
export interface TestRedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL: no save, no goodbye), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  restart(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing is answered, its clock runs on. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** Stops it for good. */
  stop(): Promise<void>;
}

/** Sends PING until the server answers PONG. */
async function waitForPing(port: number, process: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error(`redis-server exited with code ${process.exitCode}: ${output()}`);
    const answered = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      let data = '';
      socket.setTimeout(500, () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(false));
      socket.on('data', (chunk) => {
        data += chunk.toString();
        if (!data.includes('PONG')) return;
        socket.end();
        resolve(true);
      });
      socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    });
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 10 s: ${output()}`);
}

function launch(port: number, extraArguments: readonly string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArguments], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error('redis-server is not installed: the fleet tests need a real Redis (apt-get install -y redis-server)')
          : error,
      );
    });
    child.once('spawn', () => waitForPing(port, child, () => output).then(() => resolve(child), reject));
  });
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
 * Starts `redis-server` (the Debian package) on a random free port with persistence off, and
 * `extraArguments` (e.g. `--cluster-enabled yes`). Fails, never skips, when redis-server is
 * missing.
 */
export async function startRedisServer(extraArguments: readonly string[] = []): Promise<TestRedisServer> {
  const port = await freePort();
  let child = await launch(port, extraArguments);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => exited(child, 'SIGKILL'),
    async restart() {
      await exited(child, 'SIGKILL');
      child = await launch(port, extraArguments);
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    stop: () => {
      child.kill('SIGCONT');
      return exited(child, 'SIGTERM');
    },
  };
}
