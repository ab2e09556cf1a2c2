import { keelError } from '@keel/core/internal';

/** What is wrong with a server's tool. */
export type McpToolDefinitionProblem =
  /** Its input schema is not one Keel can compile (unknown keywords, an unresolvable `$ref`, not an object...). */
  | 'input-schema'
  /** Its name, prefixed and made valid for model vendors, is the same as another tool's. */
  | 'name-collision'
  /** Its name is not a non-empty string. */
  | 'name';

/**
 * A tool an MCP server lists cannot be offered to a model as it is. A server's tool list is input
 * from outside: a schema Keel cannot compile is refused here, naming the tool, rather than failing
 * an agent later. Thrown by `mcpTools()` (unless `invalidTools: 'skip'`), and reported by the
 * `tool.refused` event when a refreshed list contains such a tool. Not retryable.
 */
export class McpToolDefinitionError extends keelError('McpToolDefinitionError', { retryable: false }) {
  readonly server: string;
  /** The tool's name on the server. */
  readonly tool: string;
  readonly problem: McpToolDefinitionProblem;

  constructor({ server, tool, problem, message, cause }: { server: string; tool: string; problem: McpToolDefinitionProblem; message: string; cause?: unknown }) {
    super({ message, cause });
    this.server = server;
    this.tool = tool;
    this.problem = problem;
  }
}
