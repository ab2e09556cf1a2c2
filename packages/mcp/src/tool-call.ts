import type { ToolContext } from '@keel/core';
import { reduceError } from '@keel/core/internal';
import { type CallToolResult, ErrorCode, McpError as ProtocolError } from '@modelcontextprotocol/sdk/types.js';
import type { Connection } from './connect';
import { McpError } from './errors/mcp-error';
import { resultText } from './result-text';

/** The SDK's own timeout waits this much longer than Keel's, so Keel's `tool-timeout` is the one seen. */
const SDK_TIMEOUT_GRACE_MS = 1_000;

/** What a call needs of the connection's handle: the connection, and how it ended if it did. */
export interface CallSite {
  readonly server: string;
  readonly connection: Connection;
  readonly timeoutMs: number;
  /** The error every call gets once the connection ended, else undefined. */
  closedError(): McpError | undefined;
  /** Rejects when the connection ends (a call in flight ends then, not at its timeout). */
  readonly lost: Promise<never>;
  markClosed(error: McpError): void;
  /** After a transport error: whether the server still answers (false marks the connection closed). */
  probe(): Promise<boolean>;
}

/** One server tool as a call needs it: its name on the server, and whether it runs as an MCP task. */
export interface ServerTool {
  readonly name: string;
  /** The server requires task-based execution (`execution.taskSupport: 'required'`). */
  readonly task: boolean;
}

/** A stream message of a task-based call, as the SDK yields it. */
type StreamMessage = { readonly type: 'result'; readonly result: unknown } | { readonly type: 'error'; readonly error: unknown } | { readonly type: string };

/** Sends `tools/call`, as a plain request or (for a task tool) as a task followed to its result. */
async function send(site: CallSite, tool: ServerTool, input: unknown, signal: AbortSignal): Promise<CallToolResult> {
  const params = { name: tool.name, arguments: (input ?? {}) as Record<string, unknown> };
  const options = { signal, timeout: site.timeoutMs + SDK_TIMEOUT_GRACE_MS };
  const client = site.connection.client;
  // The SDK reads the answer with its CallToolResult schema: `content` is always a list.
  if (!tool.task) return (await client.callTool(params, undefined, options)) as CallToolResult;
  const stream = client.experimental?.tasks?.callToolStream?.(params, undefined, options) as AsyncIterable<StreamMessage> | undefined;
  if (stream === undefined) {
    throw new McpError({ problem: 'tool-call', server: site.server, tool: tool.name, message: `The MCP tool ${JSON.stringify(tool.name)} runs only as a task, which this MCP client does not offer` });
  }
  for await (const message of stream) {
    if (message.type === 'result') return (message as { result: CallToolResult }).result;
    if (message.type === 'error') throw (message as { error: unknown }).error;
  }
  throw new McpError({ problem: 'tool-call', server: site.server, tool: tool.name, message: `The MCP task of ${JSON.stringify(tool.name)} ended without a result` });
}

/** Calls a tool on the server; the run's abort (or Keel's timeout) cancels the MCP request. */
export async function callTool(site: CallSite, tool: ServerTool, input: unknown, context: ToolContext): Promise<string> {
  const closed = site.closedError();
  if (closed) throw closed;
  const signal = context.signal;
  // One controller per call, so no listener outlives the call on a long-lived run signal.
  const controller = new AbortController();
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  let settled = false;
  try {
    const result = await Promise.race([send(site, tool, input, controller.signal), site.lost]);
    settled = true;
    const text = resultText(result);
    if (result.isError === true) {
      throw new McpError({ problem: 'tool-call', server: site.server, tool: tool.name, message: text === '' ? `the tool ${JSON.stringify(tool.name)} reported an error` : text });
    }
    return text;
  } catch (error) {
    // Aborted by the run or by Keel's timeout: Keel reports that itself; no server to judge.
    if (signal.aborted) throw error;
    throw await translateError(site, error, tool.name);
  } finally {
    signal.removeEventListener('abort', forward);
    // The connection was lost first: drop the SDK's pending request (a settled one is left alone,
    // so no cancellation is sent for a call that has its answer).
    const lost = site.closedError();
    if (!settled && !controller.signal.aborted && lost) controller.abort(lost);
  }
}

/** The issues of a schema library's error (the SDK parses answers with Zod), as one line; undefined for other errors. */
function readIssues(error: unknown): string | undefined {
  let issues: unknown;
  try {
    issues = (error as { issues?: unknown } | null)?.issues;
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues)) return undefined;
  return issues
    .slice(0, 5)
    .map((issue: { path?: unknown; message?: unknown }) => `${Array.isArray(issue.path) ? issue.path.join('.') : ''}: ${String(issue.message)}`)
    .join('; ');
}

/** Any failure of a request as a typed error. */
export async function translateError(site: CallSite, error: unknown, toolName: string): Promise<unknown> {
  if (McpError.isInstance(error)) return error;
  const closed = site.closedError();
  if (closed) return closed;
  const { server } = site;
  if (error instanceof ProtocolError) {
    if (error.code === ErrorCode.ConnectionClosed) {
      const ended = new McpError({ problem: 'connection', server, failure: 'closed', message: `The MCP server ${server} closed the connection before answering`, cause: error });
      site.markClosed(ended);
      return ended;
    }
    if (error.code === ErrorCode.RequestTimeout) {
      return new McpError({ problem: 'tool-call', server, tool: toolName, code: error.code, message: `The MCP server ${server} did not answer ${JSON.stringify(toolName)} in time`, cause: error });
    }
    return new McpError({ problem: 'tool-call', server, tool: toolName, code: error.code, message: reduceError(error).message, cause: error });
  }
  const issues = readIssues(error);
  if (issues !== undefined) {
    return new McpError({ problem: 'tool-call', server, tool: toolName, message: `The answer of the MCP server ${server} to ${JSON.stringify(toolName)} does not match the MCP schema: ${issues}`, cause: error });
  }
  const message = reduceError(error).message;
  if (/not connected/i.test(message)) {
    const ended = new McpError({ problem: 'connection', server, failure: 'closed', message: `The MCP server ${server} is not connected`, cause: error });
    site.markClosed(ended);
    return ended;
  }
  // A transport failure (the HTTP request failed): find out whether the server is still there.
  if (site.connection.transport !== 'stdio' && !(await site.probe())) {
    const lost = site.closedError();
    if (lost) return lost;
  }
  return new McpError({ problem: 'tool-call', server, tool: toolName, message: `The request to the MCP server ${server} failed: ${message}`, cause: error });
}
