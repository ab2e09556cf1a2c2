/**
 * `pnpm --filter @keel/examples mcp`: an agent uses the tools of an MCP server (a small notes
 * server shipped in src/mcp/, started as a child process over stdio). Offline on the scripted
 * model, whose first call passes `limit: "a few"`: Keel re-asks with the server's own schema
 * and the corrected call runs once on the server. With ANTHROPIC_API_KEY (or OPENAI_API_KEY /
 * OPENAI_BASE_URL) set, a real model does the same job. Adding a note needs a person's approval
 * (`needsApproval`): `notesAgentWithApproval()` shows the run suspending, then going on once approved.
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

/** The notes server's tools: searching runs at once, adding a note waits for a person. */
const notesTools = () => mcpTools(notesServer, { prefix: 'notes', timeoutMs: 10_000, needsApproval: { add_note: true } });

/** Runs the agent over the notes server's tools and closes the server. */
export async function notesAgent(target: ModelTarget = offlineModel(), options: { trace?: boolean } = {}): Promise<RunResult<string>> {
  const notes = await notesTools();
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

/**
 * The model adds a note: the run suspends before anything reaches the server, a reviewer approves
 * the pending call (here, every one), and the resumed run adds it. Returns both results.
 */
export async function notesAgentWithApproval(target: ModelTarget = offlineApprovalModel()): Promise<{ suspended: RunResult<string>; resumed: RunResult<string> }> {
  const notes = await notesTools();
  try {
    const agent = Agent.create({ ...target, maxSteps: 4, stateKey: 'an example secret of at least 32 bytes' })
      .system('Keep the team notes. Add a note with the notes tools when asked to.')
      .tools(notes.tools)
      .build();
    const suspended = await agent.run('Add a note titled "Launch date" saying the launch moved to Friday.');
    if (suspended.status !== 'suspended' || suspended.state === undefined) return { suspended, resumed: suspended };
    const resumed = await agent.resume(suspended.state, { approve: suspended.pendingApprovals.map((call) => call.toolCallId) });
    return { suspended, resumed };
  } finally {
    await notes.close();
  }
}

/** The scripted model for the approval flow: one add_note call, then the answer. */
function offlineApprovalModel(): ModelTarget {
  return {
    provider: scriptedModel([
      { toolCalls: [{ id: 'add-1', name: 'notes_add_note', arguments: { title: 'Launch date', body: 'The launch moved to Friday.', tags: ['launch'] } }] },
      'Added the note "Launch date".',
    ]),
    model: 'scripted',
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await notesAgent(providerFromEnv(), { trace: true });
  console.log(`\nAnswer: ${result.text}`);
  for (const call of result.toolCalls) console.log(`Ran on the server: ${call.toolName}(${JSON.stringify(call.arguments)})`);
  const { suspended, resumed } = await notesAgentWithApproval(providerFromEnv());
  console.log(`\nAdding a note: ${suspended.status}, waiting for ${JSON.stringify(suspended.pendingApprovals.map((call) => call.toolName))}; approved: ${resumed.status}, ${resumed.text}`);
}
