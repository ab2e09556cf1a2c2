import { AgentConfigurationError, type ToolGuard } from '@keel/core';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { checkApprovalOption, type McpApproval } from './approval';

export type { McpToolInfo };

/** How to take a server's tools. */
export interface McpToolsOptions {
  /** The server's name in errors and events. Default: the name the server gives, else the command or URL. */
  readonly name?: string;
  /** Prepended to every tool's name with `_` (`github` → `github_search`): two servers, two `search` tools. */
  readonly prefix?: string;
  /** Which tools to take: their names on the server, or a test of each tool. Default: all. */
  readonly filter?: readonly string[] | ((tool: McpToolInfo) => boolean);
  /**
   * Which calls need a person's approval before they run (the run suspends, as for any Keel tool
   * with `needsApproval`; see docs/approvals.md): `true` for every tool, a map from the server's
   * tool names to `true`/`false`, or a function of the server's tool name and the validated
   * arguments. A map naming a tool the server does not list is refused by `mcpTools()`.
   * Default: none.
   */
  readonly needsApproval?: McpApproval;
  /**
   * Milliseconds one call may take: then it ends with a `tool-timeout` error result and the MCP
   * request is cancelled on the server. It replaces the agent's `toolTimeoutMs` for these tools.
   * Default 60000 (the MCP SDK's request timeout).
   */
  readonly timeoutMs?: number;
  /**
   * `true`: the server's tools are deferred, sent to the model only once its `tool_search` finds
   * them (see docs/tool-search.md); `false`: always sent, even past the agent's
   * `toolSearch.threshold`. Default: as the agent decides.
   */
  readonly defer?: boolean;
  /** Milliseconds connecting (the MCP handshake) and each listing of the tools may take. Default 30000. */
  readonly connectTimeoutMs?: number;
  /** Re-asks allowed per call when the model's arguments fail the tool's schema; default: the agent's `toolRetries`. */
  readonly retries?: number;
  /** Guards run on every call's arguments (first call and re-asks), after the agent's. */
  readonly guards?: readonly ToolGuard[];
  /**
   * A listed tool whose schema Keel cannot compile, or whose name collides with another's:
   * `throw` (default) refuses the whole list with an {@link McpError} (`tool-definition`) naming the
   * tool; `skip` leaves the tool out and reports it with the `tool.refused` event.
   */
  readonly invalidTools?: 'throw' | 'skip';
  /**
   * Follow the server's list-changed notification: `tools` becomes the new list (see
   * `tools.changed`). Default true. On a `Client` you pass, this replaces a handler you set for
   * `notifications/tools/list_changed`; pass false and call `refresh()` from yours instead.
   */
  readonly watch?: boolean;
  /** How this client introduces itself to the server. Default `{ name: 'keel', version: '0.1.0' }`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

/** Default per-call timeout: the MCP SDK's own request timeout. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Default bound on connecting and on each listing. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

const wholeNumber = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 1;

/** Refuses a bad option with an {@link AgentConfigurationError} naming it. */
export function checkOptions(options: McpToolsOptions): void {
  const fail = (setting: string, message: string): never => {
    throw new AgentConfigurationError({ setting: `mcpTools.${setting}`, message });
  };
  if (options.timeoutMs !== undefined && !wholeNumber(options.timeoutMs)) fail('timeoutMs', `must be a whole number >= 1, got ${options.timeoutMs}`);
  if (options.connectTimeoutMs !== undefined && !wholeNumber(options.connectTimeoutMs)) fail('connectTimeoutMs', `must be a whole number >= 1, got ${options.connectTimeoutMs}`);
  if (options.prefix !== undefined && (typeof options.prefix !== 'string' || !/^[a-zA-Z0-9_-]{1,40}$/.test(options.prefix))) {
    fail('prefix', 'must be 1-40 letters, digits, "_" or "-"');
  }
  if (options.filter !== undefined && typeof options.filter !== 'function' && !Array.isArray(options.filter)) fail('filter', 'must be a list of tool names or a function');
  if (options.invalidTools !== undefined && options.invalidTools !== 'throw' && options.invalidTools !== 'skip') fail('invalidTools', `must be "throw" or "skip", got ${String(options.invalidTools)}`);
  if (options.defer !== undefined && typeof options.defer !== 'boolean') fail('defer', `must be true or false, got ${String(options.defer)}`);
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name === '')) fail('name', 'must be a non-empty string');
  const approval = checkApprovalOption(options.needsApproval);
  if (approval !== undefined) fail('needsApproval', approval);
}
