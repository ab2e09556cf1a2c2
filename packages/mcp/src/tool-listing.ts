import { tool, type Tool, type ToolContext } from '@keel/core';
import { reduceError, type ToolSource } from '@keel/core/internal';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { approvalFor } from './approval';
import type { Connection } from './connect';
import { McpError } from './errors/mcp-error';
import { prepareInputSchema, withPatternChecks } from './input-schema';
import type { McpToolsOptions } from './mcp-options';
import type { ServerTool } from './tool-call';
import { keelToolName } from './tool-name';

/** Pages of `tools/list` read at most (a server that keeps sending cursors cannot loop forever). */
const MAX_LIST_PAGES = 100;

/** A tool as built from a server's listing, kept to reuse it when a new listing has it unchanged. */
export interface BuiltTool {
  readonly key: string;
  readonly tool: Tool;
}

/** The result of reading a listing: the tools Keel can offer and those it cannot. */
export interface Listing {
  readonly built: readonly BuiltTool[];
  readonly refused: readonly McpError[];
}

/** What turning a listing into Keel tools needs. */
export interface ListingContext {
  readonly server: string;
  readonly options: McpToolsOptions;
  readonly timeoutMs: number;
  /** The server's connection, which runs holding the tools observe. */
  readonly source: ToolSource;
  /** Runs one call on the server. */
  call(tool: ServerTool, input: unknown, context: ToolContext): Promise<string>;
}

/** Every page of the server's tool list; `translate` turns a failed request into a typed error. */
export async function listAll(connection: Connection, server: string, timeoutMs: number, translate: (error: unknown) => Promise<unknown>): Promise<readonly McpToolInfo[]> {
  const client = connection.client;
  if (client.getServerCapabilities()?.tools === undefined) return [];
  const tools: McpToolInfo[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    let result: { readonly tools: readonly McpToolInfo[]; readonly nextCursor?: string | undefined };
    try {
      // The SDK parsed the answer with its ListToolsResult schema.
      result = (await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: timeoutMs })) as typeof result;
    } catch (error) {
      throw await translate(error);
    }
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
    if (cursors.has(cursor)) break;
    cursors.add(cursor);
  }
  throw new McpError({ problem: 'tool-call', server, tool: 'tools/list', message: `The MCP server ${server} kept paging its tool list (a repeated cursor or more than ${MAX_LIST_PAGES} pages)` });
}

function taken(info: McpToolInfo, filter: McpToolsOptions['filter']): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'function') return filter(info) === true;
  return filter.includes(info.name);
}

/** Turns a listing into Keel tools, reusing those that did not change. */
export function buildListing(listed: readonly McpToolInfo[], previous: readonly BuiltTool[], context: ListingContext): Listing {
  const reusable = new Map(previous.map((built) => [built.key, built]));
  const built: BuiltTool[] = [];
  const refused: McpError[] = [];
  const owners = new Map<string, string>();
  const { server } = context;
  for (const info of listed) {
    const serverName: unknown = info.name;
    if (typeof serverName !== 'string' || serverName === '') {
      refused.push(new McpError({ problem: 'tool-definition', server, tool: String(serverName), definitionProblem: 'name', message: `The MCP server ${server} lists a tool without a name` }));
      continue;
    }
    if (!taken(info, context.options.filter)) continue;
    const name = keelToolName(serverName, context.options.prefix);
    const owner = owners.get(name);
    if (owner !== undefined) {
      const message = `The MCP server ${server}'s tools ${JSON.stringify(owner)} and ${JSON.stringify(serverName)} would both be named ${JSON.stringify(name)}; leave one out with filter`;
      refused.push(new McpError({ problem: 'tool-definition', server, tool: serverName, definitionProblem: 'name-collision', message }));
      continue;
    }
    owners.set(name, serverName);
    const description = typeof info.description === 'string' ? info.description : typeof info.title === 'string' ? info.title : '';
    const task = (info.execution as { taskSupport?: unknown } | undefined)?.taskSupport === 'required';
    let key: string;
    try {
      key = JSON.stringify([name, description, task, info.inputSchema]);
    } catch {
      key = `${name}\u0000unserialisable`;
    }
    const reused = reusable.get(key);
    if (reused) {
      built.push(reused);
      continue;
    }
    const made = makeTool({ name: serverName, task }, name, description, info.inputSchema, context);
    if (McpError.isInstance(made)) refused.push(made);
    else built.push({ key, tool: made });
  }
  return { built, refused };
}

/** One server tool as a Keel tool, or why it cannot be one. */
function makeTool(serverTool: ServerTool, name: string, description: string, inputSchema: unknown, context: ListingContext): Tool | McpError {
  const refuse = (message: string, cause?: unknown) =>
    new McpError({
      problem: 'tool-definition',
      server: context.server,
      tool: serverTool.name,
      definitionProblem: 'input-schema',
      message: `The input schema of the MCP tool ${JSON.stringify(serverTool.name)} (server ${context.server}) cannot be used: ${message}`,
      cause,
    });
  const prepared = prepareInputSchema(inputSchema);
  if (!prepared.ok) return refuse(prepared.message);
  const { options } = context;
  const needsApproval = approvalFor(options.needsApproval, serverTool.name);
  try {
    const made = tool({
      name,
      description,
      input: prepared.schema as Parameters<typeof tool>[0]['input'],
      execute: (input: unknown, toolContext: ToolContext) => context.call(serverTool, input, toolContext),
      timeoutMs: context.timeoutMs,
      ...(options.defer === undefined ? {} : { defer: options.defer }),
      ...(options.retries === undefined ? {} : { retries: options.retries }),
      ...(options.guards === undefined ? {} : { guards: options.guards }),
      ...(needsApproval === undefined ? {} : { needsApproval }),
    }) as Tool;
    // The model reads the schema without `$schema` (the dialect is Keel's to validate with).
    if (prepared.checks.length === 0) return Object.freeze({ ...made, source: context.source, specification: Object.freeze({ ...made.specification, inputSchema: prepared.shown }) });
    // Risky patterns run on RE2 beside the validator; the model is shown the server's whole schema.
    const validator = withPatternChecks(made.validator, prepared);
    return Object.freeze({ ...made, validator, source: context.source, specification: Object.freeze({ ...made.specification, inputSchema: validator.jsonSchema }) });
  } catch (error) {
    return refuse(reduceError(error).message.replace(/^Invalid agent configuration \([^)]*\): /, ''), error);
  }
}
