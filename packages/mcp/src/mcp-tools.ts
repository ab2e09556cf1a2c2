import { AgentConfigurationError, tool, type Tool, type ToolContext, type ToolGuard } from '@keel/core';
import { reduceError } from '@keel/core/internal';
import { type CallToolResult, ErrorCode, McpError, type Tool as McpToolInfo, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, type Connection } from './connect';
import { McpConnectionError } from './errors/mcp-connection-error';
import { McpToolCallError } from './errors/mcp-tool-call-error';
import { McpToolDefinitionError } from './errors/mcp-tool-definition-error';
import { McpEventBus, type McpEventName, type McpListener } from './mcp-events';
import type { McpClient, McpSource, McpTransportKind } from './mcp-source';
import { prepareInputSchema } from './input-schema';
import { resultText } from './result-text';
import { keelToolName } from './tool-name';

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
   * Milliseconds one call may take: then it ends with a `tool-timeout` error result and the MCP
   * request is cancelled on the server. It replaces the agent's `toolTimeoutMs` for these tools.
   * Default 60000 (the MCP SDK's request timeout).
   */
  readonly timeoutMs?: number;
  /** Milliseconds connecting (the MCP handshake) and each listing of the tools may take. Default 30000. */
  readonly connectTimeoutMs?: number;
  /** Re-asks allowed per call when the model's arguments fail the tool's schema; default: the agent's `toolRetries`. */
  readonly retries?: number;
  /** Guards run on every call's arguments (first call and re-asks), after the agent's. */
  readonly guards?: readonly ToolGuard[];
  /**
   * A listed tool whose schema Keel cannot compile, or whose name collides with another's:
   * `throw` (default) refuses the whole list with an {@link McpToolDefinitionError} naming the
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

/** A server's tools for Keel agents, kept current, and the connection they use. */
export interface McpTools {
  /**
   * The server's tools as Keel tools, current: after a list change this is the new list. An agent's
   * tools are fixed when it is built, so a change reaches the runs of agents built after it
   * (`builder.tools(mcp.tools).build()` per run, or on `tools.changed`).
   */
  readonly tools: readonly Tool[];
  /** The server's name in errors and events. */
  readonly server: string;
  /** The transport in use. */
  readonly transport: McpTransportKind;
  /** Lists the server's tools again; the new list is `tools`. Throws as `mcpTools()` does. */
  refresh(): Promise<readonly Tool[]>;
  /** Listens to an event; returns the function that stops listening. */
  on<E extends McpEventName>(event: E, listener: McpListener<E>): () => void;
  /**
   * Ends the connection: the child process of a command (asked to exit, then killed), the HTTP
   * session (the server is asked to drop it). A `Client` you passed stays open: it is yours.
   * Calls in flight and later calls fail with an {@link McpConnectionError}. Idempotent.
   */
  close(): Promise<void>;
}

/** Default per-call timeout: the MCP SDK's own request timeout. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** Default bound on connecting and on each listing. */
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** The SDK's own timeout waits this much longer than Keel's, so Keel's `tool-timeout` is the one seen. */
const SDK_TIMEOUT_GRACE_MS = 1_000;
/** A broken connection is judged by a ping answered within this time. */
const PING_TIMEOUT_MS = 5_000;
/** Pages of `tools/list` read at most (a server that keeps sending cursors cannot loop forever). */
const MAX_LIST_PAGES = 100;

function checkOptions(options: McpToolsOptions): void {
  const fail = (setting: string, message: string): never => {
    throw new AgentConfigurationError({ setting: `mcpTools.${setting}`, message });
  };
  if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs >= 1)) fail('timeoutMs', `must be a whole number >= 1, got ${options.timeoutMs}`);
  if (options.connectTimeoutMs !== undefined && !(Number.isInteger(options.connectTimeoutMs) && options.connectTimeoutMs >= 1)) {
    fail('connectTimeoutMs', `must be a whole number >= 1, got ${options.connectTimeoutMs}`);
  }
  if (options.prefix !== undefined && (typeof options.prefix !== 'string' || !/^[a-zA-Z0-9_-]{1,40}$/.test(options.prefix))) {
    fail('prefix', 'must be 1-40 letters, digits, "_" or "-"');
  }
  if (options.filter !== undefined && typeof options.filter !== 'function' && !Array.isArray(options.filter)) fail('filter', 'must be a list of tool names or a function');
  if (options.invalidTools !== undefined && options.invalidTools !== 'throw' && options.invalidTools !== 'skip') fail('invalidTools', `must be "throw" or "skip", got ${String(options.invalidTools)}`);
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name === '')) fail('name', 'must be a non-empty string');
}

/** A tool as built from a server's listing, kept to reuse it when a new listing has it unchanged. */
interface BuiltTool {
  readonly key: string;
  readonly tool: Tool;
}

/** The result of reading a listing: the tools Keel can offer and those it cannot. */
interface Listing {
  readonly built: readonly BuiltTool[];
  readonly refused: readonly McpToolDefinitionError[];
}

/** The issues of a schema library's error (the SDK parses answers with Zod), as one line; undefined for other errors. */
function readIssues(error: unknown): string | undefined {
  let issues: unknown;
  try {
    issues = (error as { issues?: unknown } | null)?.issues;
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues)) return undefined;
  return issues
    .slice(0, 5)
    .map((issue: { path?: unknown; message?: unknown }) => `${Array.isArray(issue.path) ? issue.path.join('.') : ''}: ${String(issue.message)}`)
    .join('; ');
}

class McpToolSet implements McpTools {
  private current: readonly BuiltTool[] = [];
  private closedError: McpConnectionError | undefined;
  private closing: Promise<void> | undefined;
  private probing: Promise<boolean> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private waitingNotification: Promise<readonly Tool[]> | undefined;
  private readonly lost: Promise<never>;
  private rejectLost!: (error: McpConnectionError) => void;
  private readonly events: McpEventBus;
  private readonly timeoutMs: number;
  private readonly restoreHooks: () => void;

  constructor(
    private readonly connection: Connection,
    readonly server: string,
    private readonly options: McpToolsOptions,
  ) {
    this.events = new McpEventBus(() => this.server);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.lost = new Promise<never>((_resolve, reject) => {
      this.rejectLost = reject;
    });
    // Nothing may be left unhandled when no call is in flight as the connection ends.
    this.lost.catch(() => undefined);
    this.restoreHooks = this.hook(connection.client);
  }

  get tools(): readonly Tool[] {
    return this.current.map((built) => built.tool);
  }

  get transport(): McpTransportKind {
    return this.connection.kind;
  }

  on<E extends McpEventName>(event: E, listener: McpListener<E>): () => void {
    return this.events.on(event, listener);
  }

  /** Watches the client: its close, its transport errors, and list-changed notifications. */
  private hook(client: McpClient): () => void {
    const previousClose = client.onclose;
    const previousError = client.onerror;
    client.onclose = () => {
      previousClose?.();
      this.markClosed(new McpConnectionError({ server: this.server, failure: 'closed', message: `The MCP server ${this.server} closed the connection (its process exited or the connection ended)` }));
    };
    client.onerror = (error) => {
      previousError?.(error);
      if (this.connection.kind !== 'stdio') void this.probe();
    };
    const watching = this.options.watch !== false;
    if (watching) {
      const refresh = () => {
        this.enqueue('notification').catch(() => undefined);
      };
      client.setNotificationHandler(ToolListChangedNotificationSchema as never, refresh as never);
    }
    return () => {
      if (previousClose) client.onclose = previousClose;
      else delete client.onclose;
      if (previousError) client.onerror = previousError;
      else delete client.onerror;
      if (watching) client.removeNotificationHandler('notifications/tools/list_changed');
    };
  }

  /**
   * After a transport error on HTTP: a request whose response stream broke may never be answered,
   * so ask whether the server is still there. A server that does not answer a ping is gone: calls
   * in flight end now with an {@link McpConnectionError} instead of waiting for their timeout.
   * Resolves true while the server answers.
   */
  private probe(): Promise<boolean> {
    if (this.closedError || this.closing) return Promise.resolve(false);
    this.probing ??= (async () => {
      try {
        await this.connection.client.ping({ timeout: PING_TIMEOUT_MS });
        return true;
      } catch (error) {
        if (!this.closedError && !this.closing) {
          this.markClosed(new McpConnectionError({ server: this.server, failure: 'closed', message: `The MCP server ${this.server} stopped answering (the connection broke and a ping failed)`, cause: error }));
          void this.connection.close().catch(() => undefined);
        }
        return false;
      } finally {
        this.probing = undefined;
      }
    })();
    return this.probing;
  }

  private markClosed(error: McpConnectionError): void {
    if (this.closedError) return;
    this.closedError = error;
    this.rejectLost(error);
    this.events.emit('server.closed', { server: this.server, error });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.markClosed(new McpConnectionError({ server: this.server, failure: 'closed-by-client', message: `The connection to the MCP server ${this.server} was closed by close()` }));
      this.restoreHooks();
      await this.connection.close().catch(() => undefined);
    })();
    return this.closing;
  }

  refresh(): Promise<readonly Tool[]> {
    return this.enqueue('explicit');
  }

  /**
   * Refreshes one at a time, in order; a notification's refresh reports its failure as an event.
   * Notifications arriving while one waits to start share it: a storm of them lists the tools
   * once, not once each.
   */
  enqueue(reason: 'initial' | 'explicit' | 'notification'): Promise<readonly Tool[]> {
    if (reason === 'notification' && this.waitingNotification) return this.waitingNotification;
    const run = this.queue.then(() => {
      if (reason === 'notification') this.waitingNotification = undefined;
      return this.load(reason);
    });
    this.queue = run.catch(() => undefined);
    if (reason === 'notification') {
      this.waitingNotification = run;
      run.catch((error: unknown) => {
        // A refresh cut short by the connection ending is reported by `server.closed`, not twice.
        if (!this.closedError) this.events.emit('refresh.failed', { server: this.server, error });
      });
    }
    return run;
  }

  private async load(reason: 'initial' | 'explicit' | 'notification'): Promise<readonly Tool[]> {
    if (this.closedError) throw this.closedError;
    const listed = await this.list();
    const listing = this.build(listed);
    if (listing.refused.length > 0) {
      if (this.options.invalidTools !== 'skip') throw listing.refused[0] as McpToolDefinitionError;
      for (const error of listing.refused) this.events.emit('tool.refused', { server: this.server, error });
    }
    const before = this.current;
    this.current = listing.built;
    if (reason !== 'initial') {
      const beforeNames = new Set(before.map((built) => built.tool.name));
      const afterNames = new Set(listing.built.map((built) => built.tool.name));
      const added = [...afterNames].filter((name) => !beforeNames.has(name));
      const removed = [...beforeNames].filter((name) => !afterNames.has(name));
      const replaced = listing.built.some((built, index) => before[index]?.tool !== built.tool) || before.length !== listing.built.length;
      if (replaced) this.events.emit('tools.changed', { server: this.server, tools: this.tools, added, removed });
    }
    return this.tools;
  }

  /** Every page of the server's tool list. */
  private async list(): Promise<readonly McpToolInfo[]> {
    const client = this.connection.client;
    if (client.getServerCapabilities()?.tools === undefined) return [];
    const tools: McpToolInfo[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      let result: { readonly tools: readonly McpToolInfo[]; readonly nextCursor?: string | undefined };
      try {
        // The SDK parsed the answer with its ListToolsResult schema.
        result = (await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS })) as typeof result;
      } catch (error) {
        throw await this.translate(error, 'tools/list');
      }
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) return tools;
      if (cursors.has(cursor)) break;
      cursors.add(cursor);
    }
    throw new McpToolCallError({ server: this.server, tool: 'tools/list', message: `The MCP server ${this.server} kept paging its tool list (a repeated cursor or more than ${MAX_LIST_PAGES} pages)` });
  }

  private taken(info: McpToolInfo): boolean {
    const { filter } = this.options;
    if (filter === undefined) return true;
    if (typeof filter === 'function') return filter(info) === true;
    return filter.includes(info.name);
  }

  /** Turns a listing into Keel tools, reusing those that did not change. */
  private build(listed: readonly McpToolInfo[]): Listing {
    const previous = new Map(this.current.map((built) => [built.key, built]));
    const built: BuiltTool[] = [];
    const refused: McpToolDefinitionError[] = [];
    const owners = new Map<string, string>();
    for (const info of listed) {
      const serverName: unknown = info.name;
      if (typeof serverName !== 'string' || serverName === '') {
        refused.push(new McpToolDefinitionError({ server: this.server, tool: String(serverName), problem: 'name', message: `The MCP server ${this.server} lists a tool without a name` }));
        continue;
      }
      if (!this.taken(info)) continue;
      const name = keelToolName(serverName, this.options.prefix);
      const owner = owners.get(name);
      if (owner !== undefined) {
        refused.push(
          new McpToolDefinitionError({
            server: this.server,
            tool: serverName,
            problem: 'name-collision',
            message: `The MCP server ${this.server}'s tools ${JSON.stringify(owner)} and ${JSON.stringify(serverName)} would both be named ${JSON.stringify(name)}; leave one out with filter`,
          }),
        );
        continue;
      }
      owners.set(name, serverName);
      const description = typeof info.description === 'string' ? info.description : typeof info.title === 'string' ? info.title : '';
      let key: string;
      try {
        key = JSON.stringify([name, description, info.inputSchema]);
      } catch {
        key = `${name}\u0000unserialisable`;
      }
      const reused = previous.get(key);
      if (reused) {
        built.push(reused);
        continue;
      }
      const made = this.make(serverName, name, description, info.inputSchema);
      if (McpToolDefinitionError.isInstance(made)) refused.push(made);
      else built.push({ key, tool: made });
    }
    return { built, refused };
  }

  /** One server tool as a Keel tool, or why it cannot be one. */
  private make(serverName: string, name: string, description: string, inputSchema: unknown): Tool | McpToolDefinitionError {
    const refuse = (message: string, cause?: unknown) =>
      new McpToolDefinitionError({
        server: this.server,
        tool: serverName,
        problem: 'input-schema',
        message: `The input schema of the MCP tool ${JSON.stringify(serverName)} (server ${this.server}) cannot be used: ${message}`,
        cause,
      });
    const prepared = prepareInputSchema(inputSchema);
    if (!prepared.ok) return refuse(prepared.message);
    try {
      return tool({
        name,
        description,
        input: prepared.schema as Parameters<typeof tool>[0]['input'],
        execute: (input: unknown, context: ToolContext) => this.call(serverName, input, context),
        timeoutMs: this.timeoutMs,
        ...(this.options.retries === undefined ? {} : { retries: this.options.retries }),
        ...(this.options.guards === undefined ? {} : { guards: this.options.guards }),
      }) as Tool;
    } catch (error) {
      return refuse(reduceError(error).message.replace(/^Invalid agent configuration \([^)]*\): /, ''), error);
    }
  }

  /** Calls a tool on the server; the run's abort (or Keel's timeout) cancels the MCP request. */
  private async call(serverName: string, input: unknown, context: ToolContext): Promise<string> {
    if (this.closedError) throw this.closedError;
    const signal = context.signal;
    // One controller per call, so no listener outlives the call on a long-lived run signal.
    const controller = new AbortController();
    const forward = () => controller.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
    let settled = false;
    try {
      const request = this.connection.client.callTool({ name: serverName, arguments: (input ?? {}) as Record<string, unknown> }, undefined, {
        signal: controller.signal,
        timeout: this.timeoutMs + SDK_TIMEOUT_GRACE_MS,
      });
      // The SDK reads the answer with its CallToolResult schema: `content` is always a list.
      const result = (await Promise.race([request, this.lost])) as CallToolResult;
      settled = true;
      const text = resultText(result);
      if (result.isError === true) {
        throw new McpToolCallError({ server: this.server, tool: serverName, message: text === '' ? `the tool ${JSON.stringify(serverName)} reported an error` : text });
      }
      return text;
    } catch (error) {
      // Aborted by the run or by Keel's timeout: Keel reports that itself; no server to judge.
      if (signal.aborted) throw error;
      throw await this.translate(error, serverName);
    } finally {
      signal.removeEventListener('abort', forward);
      // The connection was lost first: drop the SDK's pending request (a settled one is left alone,
      // so no cancellation is sent for a call that has its answer).
      if (!settled && !controller.signal.aborted && this.closedError) controller.abort(this.closedError);
    }
  }

  /** Any failure of a request as a typed error. */
  private async translate(error: unknown, toolName: string): Promise<unknown> {
    if (McpConnectionError.isInstance(error) || McpToolCallError.isInstance(error)) return error;
    if (this.closedError) return this.closedError;
    if (error instanceof McpError) {
      if (error.code === ErrorCode.ConnectionClosed) {
        const closed = new McpConnectionError({ server: this.server, failure: 'closed', message: `The MCP server ${this.server} closed the connection before answering`, cause: error });
        this.markClosed(closed);
        return closed;
      }
      if (error.code === ErrorCode.RequestTimeout) {
        return new McpToolCallError({ server: this.server, tool: toolName, code: error.code, message: `The MCP server ${this.server} did not answer ${JSON.stringify(toolName)} in time`, cause: error });
      }
      return new McpToolCallError({ server: this.server, tool: toolName, code: error.code, message: reduceError(error).message, cause: error });
    }
    const issues = readIssues(error);
    if (issues !== undefined) {
      return new McpToolCallError({ server: this.server, tool: toolName, message: `The answer of the MCP server ${this.server} to ${JSON.stringify(toolName)} does not match the MCP schema: ${issues}`, cause: error });
    }
    const message = reduceError(error).message;
    if (/not connected/i.test(message)) {
      const closed = new McpConnectionError({ server: this.server, failure: 'closed', message: `The MCP server ${this.server} is not connected`, cause: error });
      this.markClosed(closed);
      return closed;
    }
    // A transport failure (the HTTP request failed): find out whether the server is still there.
    if (this.connection.kind !== 'stdio' && !(await this.probe()) && this.closedError) return this.closedError;
    return new McpToolCallError({ server: this.server, tool: toolName, message: `The request to the MCP server ${this.server} failed: ${message}`, cause: error });
  }
}

/**
 * Connects to an MCP server and offers its tools to Keel agents. Each tool's input schema is the
 * server's JSON Schema, so a call is validated, re-asked and guarded as any Keel tool's, and run
 * once on the server with the arguments that passed. A result maps to the text the model reads
 * (text, structured content; images and resources described); an `isError` result, a protocol
 * error, a crash or a closed connection is the call's error result, never a hang.
 *
 * ```ts
 * const github = await mcpTools({ command: 'node', args: ['server.mjs'] }, { prefix: 'github' });
 * const agent = Agent.create({ provider, model }).tools(github.tools).build();
 * // ...
 * await github.close();
 * ```
 * @throws {McpConnectionError} when the server cannot be reached.
 * @throws {McpToolDefinitionError} when a listed tool cannot be offered (unless `invalidTools: 'skip'`).
 * @throws {AgentConfigurationError} for a bad option.
 */
export async function mcpTools(source: McpSource, options: McpToolsOptions = {}): Promise<McpTools> {
  checkOptions(options);
  const connection = await connect(source, {
    clientInfo: options.clientInfo ?? { name: 'keel', version: '0.1.0' },
    label: options.name,
    timeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
  });
  const server = options.name ?? connection.client.getServerVersion()?.name ?? 'mcp';
  const set = new McpToolSet(connection, server, options);
  try {
    await set.enqueue('initial');
  } catch (error) {
    await set.close();
    throw error;
  }
  return set;
}
