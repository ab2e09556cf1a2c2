// Run by mcp-tools-http-process.test.ts in a child process: connects over HTTP to the URL given,
// calls a tool, and forgets close() (or, with `close`, awaits it). The process must exit by
// itself, with status 0 (the connection never keeps it alive, and never lets it exit while a call
// or close() waits), after printing the answer.
import { mcpTools } from '../mcp-tools';
import { context, toolNamed } from './helpers';

const [url, transport, ending] = process.argv.slice(2);
if (url === undefined) throw new Error('usage: forget-close-http-fixture <url> [http|sse] [close]');
const mcp = await mcpTools({ url, sseFallback: transport === 'sse' });
// A call after an idle turn of the event loop still gets its answer.
await new Promise((resolve) => setImmediate(resolve));
const sum = String(await toolNamed(mcp.tools, 'add').execute({ a: 2, b: 3 }, context()));
if (ending === 'close') await mcp.close();
process.stdout.write(`${JSON.stringify({ transport: mcp.transport, sum })}\n`);
