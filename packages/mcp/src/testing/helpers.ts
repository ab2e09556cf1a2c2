import { fileURLToPath } from 'node:url';
import type { Tool, ToolContext } from '@keel/core';
import type { McpStdioSource } from '../mcp-source';

/** The stdio test server as a source: `node stdio-server.mjs`. */
export const stdioServer: McpStdioSource = {
  command: process.execPath,
  args: [fileURLToPath(new URL('./stdio-server.mjs', import.meta.url))],
};

/** A context for calling a tool directly, outside a run. */
export function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { runId: 'direct', step: 1, toolCallId: 'direct-call', idempotencyKey: 'direct:direct-call', signal };
}

/** The tool of that name (throws when absent). */
export function toolNamed(tools: readonly Tool[], name: string): Tool {
  const found = tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name} among ${tools.map((candidate) => candidate.name).join(', ')}`);
  return found;
}

/** What the test server saw: its `log` tool's answer. */
export async function serverLog(tools: readonly Tool[]): Promise<string[]> {
  return JSON.parse(String(await toolNamed(tools, 'log').execute({}, context()))) as string[];
}

/** Waits until `check` passes (polling every 10 ms, at most `ms`). */
export async function eventually(check: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
