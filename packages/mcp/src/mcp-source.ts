import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** An MCP server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioSource {
  /** The program, e.g. `node` or `npx`. Run without a shell. */
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * Environment of the process, added to the few variables the MCP SDK passes on by default
   * (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`): the rest of your environment, API keys
   * included, is not inherited unless listed here.
   */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Where the server's stderr goes. Default `inherit` (your process's stderr). */
  readonly stderr?: 'inherit' | 'ignore';
}

/** An MCP server over HTTP: Streamable HTTP, falling back to the older HTTP+SSE transport. */
export interface McpHttpSource {
  readonly url: string | URL;
  /** Sent with every request (e.g. `Authorization`). Never included in errors. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * When the server refuses Streamable HTTP with a 4xx status (an HTTP+SSE-only server), connect
   * again with the SDK's HTTP+SSE transport. Default true.
   */
  readonly sseFallback?: boolean;
}

/**
 * Where MCP tools come from: a command (stdio), a URL (HTTP), or an SDK `Client` you connected
 * yourself (any transport; `close()` then leaves it open: it is yours).
 */
export type McpSource = McpStdioSource | McpHttpSource | Client;

/** Which transport a connection uses. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse' | 'client';
