import type { ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import spawn from 'cross-spawn';
import type { McpStdioSource } from './mcp-source';
import { memberOf, ServerProcesses } from './process-tree';

/** Time given to the server to exit after end of input, then after SIGTERM. */
const GRACE_MS = 2_000;

/** A stream that can stop keeping the event loop alive (a pipe to a child process is a socket). */
const unref = (stream: unknown): void => (stream as { unref?: () => void } | null)?.unref?.();

/**
 * The MCP stdio transport over a child process (the SDK's own, with two differences; started the
 * same way, without a shell, through cross-spawn so `npx` resolves on Windows too): the child
 * and its pipes never keep this process alive by themselves (a request in flight does, through its
 * timeout), and `close()` ends every process the child started, not only the child, and
 * resolves once each is reaped.
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private processes: Promise<ServerProcesses> | undefined;
  private ending: Promise<void> | undefined;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly source: McpStdioSource) {}

  /** The child's process id, while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('The MCP stdio transport is already started'));
    return new Promise((resolve, reject) => {
      const child = spawn(this.source.command, [...(this.source.args ?? [])], {
        env: { ...getDefaultEnvironment(), ...this.source.env },
        stdio: ['pipe', 'pipe', this.source.stderr ?? 'inherit'],
        shell: false,
        windowsHide: true,
        ...(this.source.cwd === undefined ? {} : { cwd: this.source.cwd }),
      });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        const pid = child.pid as number;
        this.processes = memberOf(pid).then((root) => new ServerProcesses(root));
        child.unref();
        unref(child.stdin);
        unref(child.stdout);
        resolve();
      });
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    });
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.ending) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the child and every process it started (see `ServerProcesses.end`); resolves when none is left. */
  close(): Promise<void> {
    this.ending ??= (async () => {
      const child = this.child;
      const processes = this.processes;
      // Even once the child has exited, a process it started may still run.
      if (processes) await (await processes).end(() => child?.stdin?.end(), GRACE_MS);
      this.buffer.clear();
    })();
    return this.ending;
  }
}
