import { fileURLToPath } from 'node:url';
import { Agent, type AgentEventName, type AgentEvents, tool, type Tool, type ToolContext } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
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

/** An event an agent heard: its name and payload. */
export interface Heard<E extends AgentEventName> {
  readonly name: E;
  readonly payload: AgentEvents[E];
}

/**
 * Runs an agent holding `tools` whose model first calls a `hold` tool, which returns once
 * `during()` has: what the tools' MCP server reports meanwhile reaches the run, and the agent's
 * listeners. Returns the events of `names` the agent heard, in order.
 */
export async function heardDuringRun<E extends AgentEventName>(tools: readonly Tool[], names: readonly E[], during: (heard: readonly Heard<E>[]) => Promise<unknown>, prepare?: (agent: Agent) => void): Promise<Heard<E>[]> {
  const heard: Heard<E>[] = [];
  const hold = tool({ name: 'hold', description: 'waits', input: Type.Object({}), execute: async () => String(await during(heard)) });
  const model = scriptedModel([{ toolCalls: [{ name: 'hold', arguments: {} }] }, 'done']);
  const agent = Agent.create({ provider: model, model: 'scripted' }).tools([...tools, hold]).build();
  prepare?.(agent);
  for (const name of names) agent.on(name, (payload) => void heard.push({ name, payload }));
  const result = await agent.run('hold on');
  if (result.text !== 'done') throw new Error(`the run ended with ${JSON.stringify(result.text)}`);
  return heard;
}
