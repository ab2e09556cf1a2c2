import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DevtoolsError } from '../errors/devtools-error';
import { TraceFileReader } from '../view/trace-file-reader';
import { RequestHandler } from './handle-request';

/** The port `keel-devtools` and {@link startDevtools} listen on when none is given. */
export const DEFAULT_PORT = 4983;

/** Options of {@link startDevtools}. */
export interface DevtoolsOptions {
  /** The JSON-lines file `fileTrace()` writes. It may not exist yet: the page waits for it. */
  readonly file: string;
  /** The port on 127.0.0.1; `0` picks a free one. Default {@link DEFAULT_PORT}. */
  readonly port?: number;
}

/** A running viewer. */
export interface DevtoolsServer {
  /** The page's address, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server and ends open connections. */
  close(): Promise<void>;
}

/**
 * Serves the trace viewer of `file` on 127.0.0.1 (never on another interface): a self-contained
 * page (no CDN, no account, works offline) that lists the file's runs and shows one run's steps
 * and attempts, updated as the file grows. Rejects with a {@link DevtoolsError} (`options`) for a bad
 * option, a path that is a directory, or a port in use.
 */
export async function startDevtools(options: DevtoolsOptions): Promise<DevtoolsServer> {
  const { file } = options;
  const port = options.port ?? DEFAULT_PORT;
  if (typeof file !== 'string' || file.trim() === '' || file.includes('\0')) throw new DevtoolsError({ problem: 'options', option: 'file', message: 'must be the path of a trace file' });
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new DevtoolsError({ problem: 'options', option: 'port', message: `must be an integer from 0 to 65535, got ${String(port)}` });
  const found = await stat(file).catch(() => undefined);
  if (found && !found.isFile()) throw new DevtoolsError({ problem: 'options', option: 'file', message: `${file} is ${found.isDirectory() ? 'a directory' : 'not a file'}: give the JSON-lines file fileTrace() writes` });
  let hosts: string[] = [];
  const handler = new RequestHandler(file, new TraceFileReader(file), () => hosts);
  const server = createServer((request, response) => {
    handler.handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`The viewer failed: ${error instanceof Error ? `${error.name}: ${error.message}` : 'error'}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new DevtoolsError({ problem: 'options', option: 'port', message: error.code === 'EADDRINUSE' ? `127.0.0.1:${port} is in use: choose another port, or 0 for a free one` : error.message, cause: error })),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  hosts = [`127.0.0.1:${actual}`, `localhost:${actual}`];
  return {
    url: `http://127.0.0.1:${actual}/`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
