import { Type } from '@sinclair/typebox';
import type { ToolCallRecord } from '../tool-result';
import { type AnyTool, tool } from '../tool';
import { type CatalogEntry, catalogEntry, rankTools } from './rank-tools';

/** The name of the search tool a run with deferred tools sends. */
export const TOOL_SEARCH_NAME = 'tool_search';

/**
 * Tool search for an agent with many tools (`Agent.create({ ..., toolSearch })`): deferred tools
 * are not sent; the model gets `tool_search`, which finds them by name, description and argument
 * names, and the tools it finds are sent from the next step on. A tool is deferred when it says
 * so (`tool({ ..., defer: true })`, `mcpTools(source, { defer: true })`, `agent.asTool({ ..., defer: true })`)
 * or, with `threshold`, when the agent has more tools than that (then every tool not marked
 * `defer: false` is). See docs/tool-search.md.
 */
export interface ToolSearchOptions {
  /** Defer every tool not marked `defer: false` when the agent has more tools than this. Default: only tools marked `defer: true` are. */
  readonly threshold?: number;
  /** The most tools one search loads. Default 5. */
  readonly maxResults?: number;
}

/** The resolved tool search of an agent: which tools are deferred, and what the search ranks. */
export interface ToolSearchConfig {
  /** Names of the deferred tools: not sent until loaded. */
  readonly deferred: ReadonlySet<string>;
  readonly catalog: readonly CatalogEntry[];
  readonly maxResults: number;
}

const DEFAULT_MAX_RESULTS = 5;

/** The tools the agent defers under `options`, when any: the config and the search tool to add, or a problem as `[setting, message]`. */
export function resolveToolSearch(tools: ReadonlyMap<string, AnyTool>, options: ToolSearchOptions | undefined): { readonly config?: ToolSearchConfig; readonly searchTool?: AnyTool; readonly problem?: readonly [string, string] } {
  const { threshold, maxResults = DEFAULT_MAX_RESULTS } = options ?? {};
  if (threshold !== undefined && !(Number.isInteger(threshold) && threshold >= 0)) return { problem: ['toolSearch.threshold', `must be a whole number >= 0, got ${String(threshold)}`] };
  if (!(Number.isInteger(maxResults) && maxResults >= 1)) return { problem: ['toolSearch.maxResults', `must be a whole number >= 1, got ${String(maxResults)}`] };
  const many = threshold !== undefined && tools.size > threshold;
  const deferred = [...tools.values()].filter((candidate) => candidate.defer === true || (many && candidate.defer !== false));
  if (deferred.length === 0) return {};
  if (tools.has(TOOL_SEARCH_NAME)) return { problem: [`tool:${TOOL_SEARCH_NAME}`, `is the name of the search tool of deferred tools; rename this tool`] };
  const config: ToolSearchConfig = Object.freeze({ deferred: new Set(deferred.map((entry) => entry.name)), catalog: Object.freeze(deferred.map((entry) => catalogEntry(entry.specification))), maxResults });
  return { config, searchTool: searchTool(config) as AnyTool };
}

/** What the search tool returns: the tools it found, callable from the next step. */
function describeFound(found: readonly CatalogEntry[], query: string): string {
  if (found.length === 0) return `No tool matches ${JSON.stringify(query)}. Search again with other words (what the tool does, or an argument it takes).`;
  // One line per tool: line breaks of a description or an argument name (a hostile one could forge entries) are spaces.
  const lines = found.map((entry) => `- ${entry.name}: ${entry.description}${entry.argumentNames.length > 0 ? ` (arguments: ${entry.argumentNames.join(', ')})` : ''}`.replace(/\s+/g, ' ').trim());
  return `Found ${found.length} tool${found.length === 1 ? '' : 's'}, callable from your next step:\n${lines.join('\n')}`;
}

/** The search query of a `tool_search` call's arguments. */
const queryOf = (input: unknown): string => (typeof input === 'object' && input !== null && typeof (input as { query?: unknown }).query === 'string' ? (input as { query: string }).query : '');

/** The built-in search tool over the deferred tools' catalog. */
function searchTool(config: ToolSearchConfig) {
  return tool({
    name: TOOL_SEARCH_NAME,
    description: `Finds tools you can load by keywords (what the tool does, its name, an argument it takes). ${config.deferred.size} more tools are available this way; the tools found are callable from your next step.`,
    input: Type.Object({ query: Type.String({ description: 'Keywords, e.g. "refund order"' }) }, { additionalProperties: false }),
    effect: 'none',
    execute: ({ query }) => describeFound(rankTools(config.catalog, query, config.maxResults), query),
  });
}

/**
 * The tools `loaded` with those a turn's records load appended (in the order found): what a
 * successful `tool_search` found (the search is deterministic, so its arguments say), and any
 * deferred tool the model called directly (it is loaded by the call). `loaded` itself when none.
 */
export function loadedAfter(config: ToolSearchConfig, loaded: readonly string[], records: readonly ToolCallRecord[]): readonly string[] {
  const next = [...loaded];
  for (const record of records) {
    const names = record.toolName === TOOL_SEARCH_NAME ? (record.isError ? [] : rankTools(config.catalog, queryOf(record.arguments), config.maxResults).map((entry) => entry.name)) : config.deferred.has(record.toolName) ? [record.toolName] : [];
    for (const name of names) if (!next.includes(name)) next.push(name);
  }
  return next.length === loaded.length ? loaded : next;
}

/** Names of the deferred tools not loaded yet: what a step does not send. */
export function hiddenTools(config: ToolSearchConfig | undefined, loaded: readonly string[] | undefined): ReadonlySet<string> | undefined {
  if (config === undefined) return undefined;
  if (loaded === undefined || loaded.length === 0) return config.deferred;
  const hidden = new Set(config.deferred);
  for (const name of loaded) hidden.delete(name);
  return hidden;
}
