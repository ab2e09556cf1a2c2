import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The test server: `log` receives what it saw; `crash` ends it mid-call. */
export declare function createTestServer(options: { log: string[]; crash: () => void }): McpServer;
