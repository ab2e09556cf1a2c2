// The test server over stdio, run as a child process: `node stdio-server.mjs`.
// A crash is the process exiting mid-call, with no answer.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createTestServer } from './test-server.mjs';

const log = [];
const server = createTestServer({ log, crash: () => process.exit(3) });
await server.connect(new StdioServerTransport());
// A server with work of its own (timers) outlives the end of its input.
if (process.env.KEEL_TEST_STAY === '1') setInterval(() => undefined, 60_000);
