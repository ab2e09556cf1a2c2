import { DevtoolsError } from './errors/devtools-error';
import { DEFAULT_PORT, type DevtoolsOptions } from './server/start-devtools';

/** How to call the command. */
export const USAGE = `Usage: keel-devtools <trace-file> [--port <port>]

Serves a viewer of the trace file (written by fileTrace() from @keel/devtools) on 127.0.0.1.
  --port <port>   the port (default ${DEFAULT_PORT}; 0 picks a free one)
  --help          this text`;

/** What the command was asked: serve a file, or print the usage. */
export type CliRequest = { readonly type: 'serve'; readonly options: DevtoolsOptions } | { readonly type: 'help' };

/** Reads the command's arguments; throws a {@link DevtoolsError} (`options`) for anything it does not know. */
export function parseCliArgs(args: readonly string[]): CliRequest {
  let file: string | undefined;
  let port: number | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--help' || arg === '-h') return { type: 'help' };
    if (arg === '--port' || arg.startsWith('--port=')) {
      const value = arg === '--port' ? args[++index] : arg.slice('--port='.length);
      if (value === undefined || !/^\d{1,5}$/.test(value)) throw new DevtoolsError({ problem: 'options', option: 'port', message: `must be a number from 0 to 65535, got ${value === undefined ? 'nothing' : JSON.stringify(value)}` });
      port = Number(value);
    } else if (arg.startsWith('-')) throw new DevtoolsError({ problem: 'options', option: arg, message: 'unknown option' });
    else if (file === undefined) file = arg;
    else throw new DevtoolsError({ problem: 'options', option: 'file', message: `one trace file only, got ${JSON.stringify(file)} and ${JSON.stringify(arg)}` });
  }
  if (file === undefined) throw new DevtoolsError({ problem: 'options', option: 'file', message: 'the trace file is missing' });
  return { type: 'serve', options: { file, ...(port === undefined ? {} : { port }) } };
}
