import { keelError } from '@keel/core/internal';

/** Why an MCP server cannot be used. */
export type McpConnectionFailure =
  /** Connecting or the MCP handshake failed (the command did not start, the URL did not answer). */
  | 'connect-failed'
  /** The server's process exited or the connection ended (a crash, a network failure). */
  | 'closed'
  /** `close()` was called on the tools' handle. */
  | 'closed-by-client';

/**
 * An MCP server could not be reached, or its connection ended: thrown by `mcpTools()` when it
 * cannot connect, and by a tool call in flight or made after the server crashed, exited or was
 * closed (the model receives it as the call's error result; nothing waits for an answer that
 * cannot come). Retryable: a new connection may work.
 */
export class McpConnectionError extends keelError('McpConnectionError', { retryable: true }) {
  /** The server, as named in the tools' options or by the server itself. */
  readonly server: string;
  readonly failure: McpConnectionFailure;

  constructor({ server, failure, message, cause }: { server: string; failure: McpConnectionFailure; message: string; cause?: unknown }) {
    super({ message, cause });
    this.server = server;
    this.failure = failure;
  }
}
