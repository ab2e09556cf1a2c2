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
 * An SDK `Client`, by the members Keel uses, typed structurally so that a client from another copy
 * of `@modelcontextprotocol/sdk` in your install (another zod, another minor) fits too. Pass a
 * connected `new Client(...)`.
 */
export interface McpClient {
  callTool(params: { readonly name: string; readonly arguments?: Record<string, unknown> }, resultSchema?: undefined, options?: { readonly signal?: AbortSignal; readonly timeout?: number }): Promise<unknown>;
  listTools(params?: { readonly cursor?: string }, options?: { readonly timeout?: number }): Promise<{ readonly tools: readonly unknown[]; readonly nextCursor?: string | undefined }>;
  ping(options?: { readonly timeout?: number }): Promise<unknown>;
  /** Task-based calls (the SDK's experimental tasks API), for tools that run only as tasks. */
  readonly experimental?: {
    readonly tasks?: {
      callToolStream?(params: { readonly name: string; readonly arguments?: Record<string, unknown> }, resultSchema?: undefined, options?: { readonly signal?: AbortSignal; readonly timeout?: number }): AsyncIterable<unknown>;
    };
  };
  getServerVersion(): { readonly name: string } | undefined;
  getServerCapabilities(): { readonly tools?: unknown } | undefined;
  /** Keel registers its handler of `notifications/tools/list_changed` (typed loosely: see above). */
  setNotificationHandler(schema: never, handler: never): void;
  removeNotificationHandler(method: string): void;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
}

/**
 * Where MCP tools come from: a command (stdio), a URL (HTTP), or an SDK `Client` you connected
 * yourself (any transport; `close()` then leaves it open: it is yours).
 */
export type McpSource = McpStdioSource | McpHttpSource | McpClient;

/** Which transport a connection uses. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse' | 'client';
