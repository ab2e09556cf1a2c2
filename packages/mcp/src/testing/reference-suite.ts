// The MCP reference servers (`server-everything`, `server-filesystem`, installed packages run with
// node, no network) through @keel/mcp: every tool, first with invalid arguments (re-asked, never
// sent), then valid ones, in a real agent run with a scripted model. Run by reference-servers.test.ts,
// in-process and in a child process where code generation is forbidden (reference-fixture.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { type McpTools, mcpTools } from '../mcp-tools';
import { livingDescendants } from '../process-tree';

const require = createRequire(import.meta.url);
const everythingPath = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const filesystemPath = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

/** One tool's case: arguments the schema refuses, arguments it takes, and what the model must read. */
interface ReferenceCase {
  readonly tool: string;
  readonly invalid: unknown;
  readonly valid: Record<string, unknown>;
  /** Each must occur in what the model reads, exactly once (a result's text reaches the model once). */
  readonly once: readonly string[];
}

/** What one tool did. */
export interface ReferenceOutcome {
  readonly server: string;
  readonly tool: string;
  /** Every check passed. */
  readonly ok: boolean;
  readonly problems: readonly string[];
}

/** The whole suite's report. */
export interface ReferenceReport {
  readonly codeGeneration: boolean;
  readonly listed: Readonly<Record<string, readonly string[]>>;
  readonly outcomes: readonly ReferenceOutcome[];
  /** Runs of 100 or more base64 characters found in anything sent to the model. */
  readonly base64Sent: readonly string[];
  /** Processes started by this suite and still alive after every `close()`. */
  readonly processesLeft: readonly number[];
}

/** A PNG-looking file of 3,000 bytes: its base64 (4,000 characters) must never reach the model. */
const IMAGE = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2_992, 7)]);

function everythingCases(): readonly ReferenceCase[] {
  return [
    { tool: 'echo', invalid: {}, valid: { message: 'tide tables' }, once: ['Echo: tide tables'] },
    { tool: 'get-annotated-message', invalid: { messageType: 'loud' }, valid: { messageType: 'success', includeImage: true }, once: ['Operation completed successfully', '[image: image/png'] },
    { tool: 'get-env', invalid: 'now', valid: {}, once: ['"PATH"'] },
    { tool: 'get-resource-links', invalid: { count: 'many' }, valid: { count: 2 }, once: ['[resource link Text Resource 2'] },
    { tool: 'get-resource-reference', invalid: { resourceType: 'Video' }, valid: { resourceType: 'Blob', resourceId: 2 }, once: ['[resource demo://resource/dynamic/blob/2, text/plain', 'of binary data, not shown]'] },
    { tool: 'get-structured-content', invalid: { location: 'Paris' }, valid: { location: 'Chicago' }, once: ['"temperature"'] },
    { tool: 'get-sum', invalid: { a: 'one', b: 2 }, valid: { a: 1, b: 2 }, once: ['The sum of 1 and 2 is 3.'] },
    { tool: 'get-tiny-image', invalid: 'now', valid: {}, once: ['[image: image/png'] },
    { tool: 'gzip-file-as-resource', invalid: { name: 'notes.gz', data: 'not a uri' }, valid: { name: 'notes.gz', data: 'data:text/plain;base64,aGVsbG8=' }, once: ['[resource link notes.gz'] },
    { tool: 'toggle-simulated-logging', invalid: 'now', valid: {}, once: ['Started simulated'] },
    { tool: 'toggle-subscriber-updates', invalid: 'now', valid: {}, once: ['Started simulated resource updated'] },
    { tool: 'trigger-long-running-operation', invalid: { duration: 'long' }, valid: { duration: 0.1, steps: 1 }, once: ['Long running operation completed'] },
    { tool: 'simulate-research-query', invalid: {}, valid: { topic: 'tides' }, once: ['# Research Report: tides'] },
  ];
}

function filesystemCases(root: string): readonly ReferenceCase[] {
  const at = (name: string) => join(root, name);
  return [
    { tool: 'read_file', invalid: {}, valid: { path: at('notes.txt') }, once: ['first line'] },
    { tool: 'read_text_file', invalid: { path: at('notes.txt'), head: 'one' }, valid: { path: at('notes.txt'), head: 1 }, once: ['first line'] },
    { tool: 'read_media_file', invalid: {}, valid: { path: at('chart.png') }, once: ['[image: image/png, 2.9 KB, not shown]'] },
    { tool: 'read_multiple_files', invalid: {}, valid: { paths: [at('notes.txt'), at('other.txt')] }, once: ['first line', 'other file'] },
    { tool: 'write_file', invalid: { path: at('new.txt') }, valid: { path: at('new.txt'), content: 'written' }, once: ['Successfully wrote'] },
    { tool: 'edit_file', invalid: { path: at('new.txt'), edits: [{ oldText: 'written' }] }, valid: { path: at('new.txt'), edits: [{ oldText: 'written', newText: 'edited' }] }, once: ['+edited'] },
    { tool: 'create_directory', invalid: {}, valid: { path: at('sub') }, once: ['Successfully created directory'] },
    { tool: 'list_directory', invalid: {}, valid: { path: root }, once: ['[FILE] notes.txt'] },
    { tool: 'list_directory_with_sizes', invalid: { path: root, sortBy: 'date' }, valid: { path: root, sortBy: 'size' }, once: ['notes.txt'] },
    { tool: 'directory_tree', invalid: {}, valid: { path: root }, once: ['"name": "notes.txt"'] },
    { tool: 'move_file', invalid: { source: at('new.txt') }, valid: { source: at('new.txt'), destination: at('moved.txt') }, once: ['Successfully moved'] },
    { tool: 'search_files', invalid: { path: root }, valid: { path: root, pattern: '**/*.txt' }, once: ['moved.txt'] },
    { tool: 'get_file_info', invalid: {}, valid: { path: at('notes.txt') }, once: ['size:'] },
    { tool: 'list_allowed_directories', invalid: 'now', valid: {}, once: [root] },
  ];
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

/** Runs one case as an agent run: invalid arguments (re-asked), then valid ones, then an answer. */
async function runCase(mcp: McpTools, server: string, testCase: ReferenceCase, sent: string[]): Promise<ReferenceOutcome> {
  const model = scriptedModel([
    { toolCalls: [{ id: 'call-1', name: testCase.tool, arguments: testCase.invalid }] },
    { toolCalls: [{ id: 'call-1', name: testCase.tool, arguments: testCase.valid }] },
    'done',
  ]);
  const reAsks: string[] = [];
  const agent = Agent.create({ provider: model, model: 'scripted', toolRetries: 1 }).tools(mcp.tools).build();
  agent.on('tool.re-ask', (event) => void reAsks.push(event.feedback));
  const problems: string[] = [];
  try {
    const result = await agent.run(`use ${testCase.tool}`);
    for (const request of model.requests) sent.push(JSON.stringify(request.messages));
    const call = result.toolCalls[0];
    if (reAsks.length !== 1) problems.push(`${reAsks.length} re-asks for the invalid arguments, expected 1`);
    if (result.toolCalls.length !== 1 || call === undefined) problems.push(`${result.toolCalls.length} tool call records`);
    else if (call.isError) problems.push(`error result: ${call.output.slice(0, 300)}`);
    else for (const part of testCase.once) if (occurrences(call.output, part) !== 1) problems.push(`${JSON.stringify(part)} occurs ${occurrences(call.output, part)} times in ${JSON.stringify(call.output.slice(0, 300))}`);
  } catch (error) {
    problems.push(`the run failed: ${String(error)}`);
  }
  return { server, tool: testCase.tool, ok: problems.length === 0, problems };
}

/** Runs every tool of both reference servers; see {@link ReferenceReport}. */
export async function runReferenceSuite(): Promise<ReferenceReport> {
  // Processes this one had before (a loader's service process) are not the suite's.
  const before = new Set(await livingDescendants(process.pid));
  const root = await mkdtemp(join(tmpdir(), 'keel-mcp-reference-'));
  await writeFile(join(root, 'notes.txt'), 'first line\nsecond line\n');
  await writeFile(join(root, 'other.txt'), 'other file\n');
  await writeFile(join(root, 'chart.png'), IMAGE);
  const open: McpTools[] = [];
  const outcomes: ReferenceOutcome[] = [];
  const listed: Record<string, readonly string[]> = {};
  const sent: string[] = [];
  try {
    const servers = [
      { name: 'everything', args: [everythingPath, 'stdio'], cases: everythingCases() },
      { name: 'filesystem', args: [filesystemPath, root], cases: filesystemCases(root) },
    ];
    for (const server of servers) {
      const mcp = await mcpTools({ command: process.execPath, args: server.args, stderr: 'ignore' }, { name: server.name, timeoutMs: 20_000 });
      open.push(mcp);
      listed[server.name] = mcp.tools.map((tool) => tool.name);
      for (const testCase of server.cases) outcomes.push(await runCase(mcp, server.name, testCase, sent));
      const covered = new Set(server.cases.map((testCase) => testCase.tool));
      for (const name of listed[server.name] ?? []) if (!covered.has(name)) outcomes.push({ server: server.name, tool: name, ok: false, problems: ['no case for this tool'] });
    }
  } finally {
    await Promise.all(open.map((mcp) => mcp.close()));
    await rm(root, { recursive: true, force: true });
  }
  const base64Sent = sent.flatMap((text) => text.match(/[A-Za-z0-9+/]{100,}={0,2}/g) ?? []).map((run) => `${run.slice(0, 40)}... (${run.length} characters)`);
  return { codeGeneration: canCompile(), listed, outcomes, base64Sent, processesLeft: (await livingDescendants(process.pid)).filter((pid) => !before.has(pid)) };
}

function canCompile(): boolean {
  try {
    return typeof new Function('return 1') === 'function';
  } catch {
    return false;
  }
}
