// Run by mcp-tools-process.test.ts in a child process: connects, calls a tool, and forgets close().
// The process must exit by itself (the connection never keeps it alive), after printing the answers.
import { mcpTools } from '../mcp-tools';
import { context, stdioServer, toolNamed } from './helpers';

const mcp = await mcpTools(stdioServer);
const pid = String(await toolNamed(mcp.tools, 'pid').execute({}, context()));
// A call after an idle turn of the event loop still gets its answer.
await new Promise((resolve) => setImmediate(resolve));
const sum = String(await toolNamed(mcp.tools, 'add').execute({ a: 2, b: 3 }, context()));
process.stdout.write(`${JSON.stringify({ pid: Number(pid), sum })}\n`);
