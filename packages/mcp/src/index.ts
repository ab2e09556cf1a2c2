// The public API of @keel/mcp: MCP servers' tools as Keel tools.
export { mcpTools, type McpToolInfo, type McpTools, type McpToolsOptions } from './mcp-tools';
export type { McpApproval } from './approval';
export type { McpClient, McpHttpSource, McpSource, McpStdioSource, McpTransportKind } from './mcp-source';
export { McpError, type McpConnectionFailure, type McpProblem, type McpToolDefinitionProblem } from './errors/mcp-error';
