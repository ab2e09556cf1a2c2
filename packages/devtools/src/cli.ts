#!/usr/bin/env node
import { parseCliArgs, USAGE } from './cli-args';
import { DevtoolsError } from './errors/devtools-error';
import { startDevtools } from './server/start-devtools';

/** `keel-devtools <file> [--port <port>]`: serves the viewer until interrupted. */
async function main(): Promise<number> {
  try {
    const request = parseCliArgs(process.argv.slice(2));
    if (request.type === 'help') {
      console.log(USAGE);
      return 0;
    }
    const server = await startDevtools(request.options);
    console.log(`Keel devtools: ${server.url} (reading ${request.options.file}; Ctrl+C to stop)`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1;
  } catch (error) {
    if (!DevtoolsError.isInstance(error) || error.problem !== 'options') throw error;
    console.error(`keel-devtools: ${error.message}\n\n${USAGE}`);
    return 2;
  }
}

void main().then((code) => {
  if (code >= 0) process.exitCode = code;
});
