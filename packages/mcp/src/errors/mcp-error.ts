import { keelError } from '@keel/core/internal';

/**
 * What failed with an MCP server: `connection`, it could not be reached or its connection ended
 * (retryable: a new connection may work; `failure` says how); `tool-definition`, a tool it lists
 * cannot be offered to a model as it is (not retryable; `definitionProblem` says why); `tool-call`,
 * it answered a tool call with an error (not retryable as is: the server has answered; `code` is
 * the JSON-RPC error code of a protocol error).
 */
export type McpProblem = 'connection' | 'tool-definition' | 'tool-call';

/** Why an MCP server cannot be used (`problem: 'connection'`). */
export type McpConnectionFailure =
  /** Connecting or the MCP handshake failed (the command did not start, the URL did not answer). */
  | 'connect-failed'
  /** The server's process exited or the connection ended (a crash, a network failure). */
  | 'closed'
  /** `close()` was called on the tools' handle. */
  | 'closed-by-client';

/** What is wrong with a server's tool (`problem: 'tool-definition'`). */
export type McpToolDefinitionProblem =
  /** Its input schema is not one Keel can compile (unknown keywords, an unresolvable `$ref`, not an object...). */
  | 'input-schema'
  /** Its name, prefixed and made valid for model vendors, is the same as another tool's. */
  | 'name-collision'
  /** Its name is not a non-empty string. */
  | 'name';

/** Constructor fields of {@link McpError}, by problem. */
export type McpErrorOptions = { readonly server: string; readonly message: string; readonly cause?: unknown } & (
  | { readonly problem: 'connection'; readonly failure: McpConnectionFailure }
  | { readonly problem: 'tool-definition'; readonly tool: string; readonly definitionProblem: McpToolDefinitionProblem }
  | { readonly problem: 'tool-call'; readonly tool: string; readonly code?: number }
);

/**
 * An MCP server failed Keel, as its `problem` says. `connection`: thrown by `mcpTools()` when it
 * cannot connect, and by a tool call in flight or made after the server crashed, exited or was
 * closed (nothing waits for an answer that cannot come). `tool-definition`: a server's tool list
 * is input from outside, so a tool Keel cannot offer is refused here, naming it, rather than
 * failing an agent later; thrown by `mcpTools()` (unless `invalidTools: 'skip'`) and reported by
 * the `mcp.tool-refused` event when a refreshed list contains such a tool. `tool-call`: a result
 * marked `isError` (the tool ran and failed; `code` is absent) or a protocol error (`code` is the
 * JSON-RPC error code, e.g. -32602 for invalid params, -32001 for the server's request timeout).
 * The model receives a call's error as the call's error result. Only `connection` is retryable.
 */
export class McpError extends keelError('McpError') {
  readonly problem: McpProblem;
  /** The server, as named in the tools' options or by the server itself. */
  readonly server: string;
  /** The tool's name on the server (`tool-definition`, `tool-call`). */
  readonly tool?: string;
  /** How the connection failed (`connection`). */
  readonly failure?: McpConnectionFailure;
  /** What is wrong with the tool (`tool-definition`). */
  readonly definitionProblem?: McpToolDefinitionProblem;
  /** The JSON-RPC error code of a protocol error (`tool-call`); absent for an `isError` result. */
  readonly code?: number;

  constructor(options: McpErrorOptions) {
    super({ message: options.message, cause: options.cause, retryable: options.problem === 'connection' });
    this.problem = options.problem;
    this.server = options.server;
    if (options.problem === 'connection') this.failure = options.failure;
    else this.tool = options.tool;
    if (options.problem === 'tool-definition') this.definitionProblem = options.definitionProblem;
    if (options.problem === 'tool-call' && options.code !== undefined) this.code = options.code;
  }
}
