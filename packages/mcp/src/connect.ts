import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { reduceError } from '@keel/core/internal';
import { McpError } from './errors/mcp-error';
import type { McpClient, McpHttpSource, McpSource, McpStdioSource, McpTransportKind } from './mcp-source';
import { KeelSchemaValidator } from './output-validator';
import { ChildProcessTransport } from './stdio-transport';
import { unrefFetch } from './unref-fetch';

/** A new SDK client; its output-schema checks use Keel's validator (no code generation, bounded patterns). */
const newClient = (options: ConnectOptions): Client => new Client(options.clientInfo, { jsonSchemaValidator: new KeelSchemaValidator() });

/** A connected client, and whether this package made it (and so closes it). */
export interface Connection {
  readonly client: McpClient;
  readonly owned: boolean;
  readonly transport: McpTransportKind;
  /** Ends the session (HTTP: asks the server to drop it) and the transport (stdio: the child process). */
  close(): Promise<void>;
}

/** What `connect` needs besides the source. */
export interface ConnectOptions {
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** For errors: the server's name when the caller gave one. */
  readonly label: string | undefined;
  /** Bounds the handshake, so a command that is no MCP server cannot hang `mcpTools()`. */
  readonly timeoutMs: number;
}

/** True for an SDK client (or anything that speaks like one). */
export function isClient(source: McpSource): source is McpClient {
  const candidate = source as Partial<McpClient>;
  return typeof candidate.callTool === 'function' && typeof candidate.listTools === 'function';
}

function isStdio(source: McpSource): source is McpStdioSource {
  return typeof (source as Partial<McpStdioSource>).command === 'string';
}

function isHttp(source: McpSource): source is McpHttpSource {
  const url = (source as Partial<McpHttpSource>).url;
  return typeof url === 'string' || url instanceof URL;
}

function connectFailed(label: string, what: string, cause: unknown): McpError {
  return new McpError({ problem: 'connection', server: label, failure: 'connect-failed', message: `Could not connect to the MCP server ${label} (${what}): ${reduceError(cause).message}`, cause });
}

async function closeQuietly(client: Client): Promise<void> {
  try {
    await client.close();
  } catch {
    // Closing after a failed connect: nothing left to report.
  }
}

async function connectStdio(source: McpStdioSource, options: ConnectOptions): Promise<Connection> {
  const label = options.label ?? source.command;
  const transport = new ChildProcessTransport(source);
  const client = newClient(options);
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    await closeQuietly(client);
    throw connectFailed(label, `command ${JSON.stringify(source.command)}`, error);
  }
  return { client, owned: true, transport: 'stdio', close: () => client.close() };
}

/** A 4xx answer to the first Streamable HTTP request: the server may speak only HTTP+SSE. */
function refusedStreamableHttp(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}

/**
 * Keeps the process alive while an HTTP connection is made, for at most `timeoutMs`: the server's
 * event stream does not (see `unrefFetch`), and HTTP+SSE waits on it for the session's endpoint.
 */
async function holding<T>(connecting: Promise<T>, timeoutMs: number): Promise<T> {
  const hold = setTimeout(() => undefined, timeoutMs);
  try {
    return await connecting;
  } finally {
    clearTimeout(hold);
  }
}

async function connectHttp(source: McpHttpSource, options: ConnectOptions): Promise<Connection> {
  let url: URL;
  try {
    url = new URL(source.url);
  } catch (error) {
    throw connectFailed(options.label ?? 'at the given URL', 'the URL does not parse', error);
  }
  // The label never shows the URL's query or credentials, which may hold a token.
  const label = options.label ?? `${url.protocol}//${url.host}${url.pathname}`;
  const requestInit: RequestInit = source.headers === undefined ? {} : { headers: { ...source.headers } };
  const streamable = new StreamableHTTPClientTransport(url, { requestInit, fetch: unrefFetch });
  const client = newClient(options);
  try {
    await holding(client.connect(streamable, { timeout: options.timeoutMs }), options.timeoutMs);
    return {
      client,
      owned: true,
      transport: 'streamable-http',
      async close() {
        // Ask the server to drop the session; a server that cannot is no reason to keep the transport.
        await streamable.terminateSession().catch(() => undefined);
        await client.close();
      },
    };
  } catch (error) {
    await closeQuietly(client);
    if (source.sseFallback === false || !refusedStreamableHttp(error)) throw connectFailed(label, 'Streamable HTTP', error);
    const sse = new SSEClientTransport(url, { requestInit, fetch: unrefFetch });
    const sseClient = newClient(options);
    try {
      await holding(sseClient.connect(sse, { timeout: options.timeoutMs }), options.timeoutMs);
    } catch (sseError) {
      await closeQuietly(sseClient);
      throw connectFailed(label, `Streamable HTTP refused (${reduceError(error).message}), then HTTP+SSE`, sseError);
    }
    return { client: sseClient, owned: true, transport: 'sse', close: () => sseClient.close() };
  }
}

/**
 * Connects to an MCP server: spawns a command (stdio), or opens an HTTP session (Streamable
 * HTTP, else HTTP+SSE), or takes a client already connected.
 * @throws {McpError} `connection` (`connect-failed`), naming the server.
 */
export async function connect(source: McpSource, options: ConnectOptions): Promise<Connection> {
  if (typeof source !== 'object' || source === null) {
    throw connectFailed(options.label ?? 'given', 'no source', new TypeError('mcpTools() takes { command }, { url } or a connected MCP SDK Client'));
  }
  if (isClient(source)) {
    if (source.getServerVersion() === undefined) {
      throw connectFailed(options.label ?? 'given', 'an SDK Client', new Error('the Client is not connected: await client.connect(transport) first'));
    }
    return { client: source, owned: false, transport: 'client', close: async () => undefined };
  }
  if (isStdio(source)) return connectStdio(source, options);
  if (isHttp(source)) return connectHttp(source, options);
  throw connectFailed(options.label ?? 'given', 'no source', new TypeError('mcpTools() takes { command }, { url } or a connected MCP SDK Client'));
}
