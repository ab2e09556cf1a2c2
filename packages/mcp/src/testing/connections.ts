import { afterEach } from 'vitest';
import { type McpTools, mcpTools } from '../mcp-tools';
import type { McpStdioSource } from '../mcp-source';
import { stdioServer } from './helpers';

/**
 * For a test file: a function connecting with options (to the stdio test server unless another
 * source is given); every connection it made is closed after each test.
 */
export function stdioConnections(): (options?: Parameters<typeof mcpTools>[1], source?: McpStdioSource) => Promise<McpTools> {
  const open: McpTools[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((mcp) => mcp.close()));
  });
  return async (options = {}, source = stdioServer) => {
    const mcp = await mcpTools(source, options);
    open.push(mcp);
    return mcp;
  };
}
