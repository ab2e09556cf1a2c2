import { keelError } from '@keel/core/internal';

/**
 * An MCP server answered a tool call with an error: a result marked `isError` (the tool ran and
 * failed; `code` is absent) or a protocol error (`code` is the JSON-RPC error code, e.g. -32602
 * for invalid params, -32001 for the server's request timeout). The model receives the message as
 * the call's error result. Not retryable as is: the server has answered.
 */
export class McpToolCallError extends keelError('McpToolCallError', { retryable: false }) {
  readonly server: string;
  /** The tool's name on the server. */
  readonly tool: string;
  /** The JSON-RPC error code of a protocol error; absent for an `isError` result. */
  readonly code?: number;

  constructor({ server, tool, code, message, cause }: { server: string; tool: string; code?: number; message: string; cause?: unknown }) {
    super({ message, cause });
    this.server = server;
    this.tool = tool;
    if (code !== undefined) this.code = code;
  }
}
