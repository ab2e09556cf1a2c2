import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A TypeScript script running in its own Node process (a fleet worker, in tests and benchmarks). */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Every JSON line the script printed, parsed, in order. */
  readonly messages: unknown[];
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  readonly exited: Promise<number | string>;
  /** Resolves with the first message that satisfies `test`. */
  waitFor(test: (message: unknown) => boolean, timeoutMs?: number): Promise<unknown>;
}

/**
 * Runs `script` (a path or file URL of a .ts file) with tsx and, unless `sources` is false, the
 * workspace's source condition, so it imports the packages' TypeScript sources. Its stdout must be JSON lines; stderr is kept
 * for the error message when it fails.
 */
export function startWorkerProcess(script: string | URL, args: readonly string[] = [], options: { readonly sources?: boolean } = {}): WorkerProcess {
  const path = script instanceof URL ? fileURLToPath(script) : script;
  // Without the source condition, workspace packages resolve to their builds (dist).
  const conditions = options.sources === false ? [] : ['--conditions=@keel/source'];
  const child = spawn(process.execPath, [...conditions, '--import', 'tsx', path, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const messages: unknown[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  let errors = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line === '') continue;
      try {
        messages.push(JSON.parse(line));
      } catch {
        errors += `${line}\n`;
      }
      for (const wake of waiters) wake();
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-8000)));
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const wake of waiters) wake();
      resolve(code ?? signal ?? 'unknown');
    });
  });
  return {
    child,
    messages,
    exited,
    waitFor(test, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(test);
          if (found !== undefined) return finish(() => resolve(found));
          if (child.exitCode !== null || child.signalCode !== null) finish(() => reject(new Error(`worker ended (${child.exitCode ?? child.signalCode}) before the awaited message: ${errors}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no awaited message from the worker within ${timeoutMs} ms: ${errors}`))), timeoutMs);
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
  };
}
