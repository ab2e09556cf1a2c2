/**
 * `pnpm --filter @keel/examples mcp`: an agent uses the tools of an MCP server (a small notes
 * server shipped in src/mcp/, started as a child process over stdio). Offline on the scripted
 * model, whose first call passes `limit: "a few"`: Keel re-asks with the server's own schema
 * and the corrected call runs once on the server. With ANTHROPIC_API_KEY (or OPENAI_API_KEY /
 * OPENAI_BASE_URL) set, a real model does the same job.
 */
import { fileURLToPath } from 'node:url';
import { Agent, consoleTrace, type ModelTarget, type RunResult } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { mcpTools } from '@keel/mcp';
import { providerFromEnv } from './providers/provider-from-env';

/** The notes server: `node src/mcp/notes-server.mjs`. */
export const notesServer = {
  command: process.execPath,
  args: [fileURLToPath(new URL('./mcp/notes-server.mjs', import.meta.url))],
} as const;

/** The scripted model's part: a bad first call, its correction, then the answer. */
function offlineModel(): ModelTarget {
  return {
    provider: scriptedModel([
      { toolCalls: [{ id: 'search-1', name: 'notes_search_notes', arguments: { query: 'launch', limit: 'a few' } }] },
      { toolCalls: [{ id: 'search-1', name: 'notes_search_notes', arguments: { query: 'launch', limit: 3 } }] },
      'Two launch notes: publish the status page before the announcement (retro), and the press embargo lifts Thursday 9:00 UTC (checklist).',
    ]),
    model: 'scripted',
  };
}

/** Runs the agent over the notes server's tools and closes the server. */
export async function notesAgent(target: ModelTarget = offlineModel(), options: { trace?: boolean } = {}): Promise<RunResult<string>> {
  const notes = await mcpTools(notesServer, { prefix: 'notes', timeoutMs: 10_000 });
  try {
    let builder = Agent.create({ ...target, maxSteps: 4 })
      .system('Answer from the team notes. Search them with the notes tools; cite the notes you use.')
      .tools(notes.tools);
    if (options.trace) builder = builder.use(consoleTrace({ colors: process.stdout.isTTY === true }));
    return await builder.build().run('What did we learn from the last launch, and when does the press embargo lift?');
  } finally {
    await notes.close();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await notesAgent(providerFromEnv(), { trace: true });
  console.log(`\nAnswer: ${result.text}`);
  for (const call of result.toolCalls) console.log(`Ran on the server: ${call.name}(${JSON.stringify(call.arguments)})`);
}
