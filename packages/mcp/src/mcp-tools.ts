import { AgentConfigurationError, type Tool } from '@keel/core';
import { type EventPayload, reduceError, type ToolSource, type ToolSourceEmit, type ToolSourceEventName } from '@keel/core/internal';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { unknownApprovalNames } from './approval';
import { connect, type Connection } from './connect';
import { McpError } from './errors/mcp-error';
import { checkOptions, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, type McpToolsOptions } from './mcp-options';
import type { McpClient, McpSource, McpTransportKind } from './mcp-source';
import { callTool, type CallSite, translateError } from './tool-call';
import { type BuiltTool, buildListing, listAll } from './tool-listing';

export type { McpToolInfo, McpToolsOptions } from './mcp-options';

/** A server's tools for Keel agents, kept current, and the connection they use. */
export interface McpTools {
  /**
   * The server's tools as Keel tools, current: after a list change this is the new list. An agent's
   * tools are fixed when it is built, so a change reaches the runs of agents built after it
   * (`builder.tools(mcp.tools).build()` per run). Runs holding these tools report the server's
   * events (`mcp.tools-changed`, `mcp.server-closed`, ...) on their agent's bus.
   */
  readonly tools: readonly Tool[];
  /** The server's name in errors and events. */
  readonly server: string;
  /** The transport in use. */
  readonly transport: McpTransportKind;
  /** Lists the server's tools again; the new list is `tools`. Throws as `mcpTools()` does. */
  refresh(): Promise<readonly Tool[]>;
  /**
   * Ends the connection: for a command, its process and every process it started (asked to
   * exit, then sent SIGTERM, then SIGKILL; resolves when none is left), for a URL the HTTP session
   * (the server is asked to drop it). A `Client` you passed stays open: it is yours.
   * Calls in flight and later calls fail with an {@link McpError} (`connection`). Idempotent.
   */
  close(): Promise<void>;
}

/** A broken connection is judged by a ping answered within this time. */
const PING_TIMEOUT_MS = 5_000;

class McpToolSet implements McpTools, CallSite, ToolSource {
  private current: readonly BuiltTool[] = [];
  private ended: McpError | undefined;
  private closing: Promise<void> | undefined;
  private probing: Promise<boolean> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private waitingNotification: Promise<readonly Tool[]> | undefined;
  readonly lost: Promise<never>;
  private rejectLost!: (error: McpError) => void;
  /** The runs in flight holding these tools, each told the server's events. */
  private readonly observers = new Set<ToolSourceEmit>();
  readonly timeoutMs: number;
  private readonly restoreHooks: () => void;

  constructor(
    readonly connection: Connection,
    readonly server: string,
    private readonly options: McpToolsOptions,
  ) {
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
    return this.connection.transport;
  }

  /** A run holding these tools observes the server from its start to its end; one that starts after the connection ended is told at once. */
  observe(emit: ToolSourceEmit): () => void {
    this.observers.add(emit);
    if (this.ended) emit('mcp.server-closed', this.closedPayload(this.ended));
    return () => {
      this.observers.delete(emit);
    };
  }

  /** Tells every run observing the server. */
  private report<E extends ToolSourceEventName>(event: E, payload: EventPayload<E>): void {
    for (const emit of this.observers) emit(event, payload);
  }

  private closedPayload(error: McpError): EventPayload<'mcp.server-closed'> {
    return { server: this.server, failure: error.failure ?? 'closed', message: error.message };
  }

  /** Watches the client: its close, its transport errors, and list-changed notifications. */
  private hook(client: McpClient): () => void {
    const previousClose = client.onclose;
    const previousError = client.onerror;
    client.onclose = () => {
      previousClose?.();
      this.markClosed(new McpError({ problem: 'connection', server: this.server, failure: 'closed', message: `The MCP server ${this.server} closed the connection (its process exited or the connection ended)` }));
    };
    client.onerror = (error) => {
      previousError?.(error);
      if (this.connection.transport !== 'stdio') void this.probe();
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
   * in flight end now with an {@link McpError} (`connection`) instead of waiting for their timeout.
   * Resolves true while the server answers.
   */
  probe(): Promise<boolean> {
    if (this.ended || this.closing) return Promise.resolve(false);
    this.probing ??= (async () => {
      try {
        await this.connection.client.ping({ timeout: PING_TIMEOUT_MS });
        return true;
      } catch (error) {
        if (!this.ended && !this.closing) {
          this.markClosed(new McpError({ problem: 'connection', server: this.server, failure: 'closed', message: `The MCP server ${this.server} stopped answering (the connection broke and a ping failed)`, cause: error }));
          void this.connection.close().catch(() => undefined);
        }
        return false;
      } finally {
        this.probing = undefined;
      }
    })();
    return this.probing;
  }

  closedError(): McpError | undefined {
    return this.ended;
  }

  markClosed(error: McpError): void {
    if (this.ended) return;
    this.ended = error;
    this.rejectLost(error);
    this.report('mcp.server-closed', this.closedPayload(error));
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.markClosed(new McpError({ problem: 'connection', server: this.server, failure: 'closed-by-client', message: `The connection to the MCP server ${this.server} was closed by close()` }));
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
        // A refresh cut short by the connection ending is reported by `mcp.server-closed`, not twice.
        if (this.ended) return;
        const { name, message } = reduceError(error);
        this.report('mcp.refresh-failed', { server: this.server, errorName: name, message });
      });
    }
    return run;
  }

  private async load(reason: 'initial' | 'explicit' | 'notification'): Promise<readonly Tool[]> {
    if (this.ended) throw this.ended;
    const listed = await listAll(this.connection, this.server, this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, (error) => translateError(this, error, 'tools/list'));
    if (reason === 'initial') {
      const unknown = unknownApprovalNames(this.options.needsApproval, listed.map((info) => info.name));
      if (unknown.length > 0) {
        throw new AgentConfigurationError({ setting: 'mcpTools.needsApproval', message: `names tools the MCP server ${this.server} does not list: ${unknown.map((name) => JSON.stringify(name)).join(', ')}` });
      }
    }
    const listing = buildListing(listed, this.current, { server: this.server, options: this.options, timeoutMs: this.timeoutMs, source: this, call: (tool, input, context) => callTool(this, tool, input, context) });
    if (listing.refused.length > 0) {
      if (this.options.invalidTools !== 'skip') throw listing.refused[0] as McpError;
      for (const error of listing.refused) this.report('mcp.tool-refused', { server: this.server, toolName: error.tool ?? '', problem: error.definitionProblem ?? '', message: error.message });
    }
    const before = this.current;
    this.current = listing.built;
    if (reason !== 'initial') this.reportChange(before);
    return this.tools;
  }

  /** Reports `mcp.tools-changed` when the new list differs from `before`. */
  private reportChange(before: readonly BuiltTool[]): void {
    const beforeNames = new Set(before.map((built) => built.tool.name));
    const afterNames = new Set(this.current.map((built) => built.tool.name));
    const added = [...afterNames].filter((name) => !beforeNames.has(name));
    const removed = [...beforeNames].filter((name) => !afterNames.has(name));
    const replaced = this.current.some((built, index) => before[index]?.tool !== built.tool) || before.length !== this.current.length;
    // One payload for every run observing: its lists are frozen, as the bus freezes the payload.
    if (replaced) this.report('mcp.tools-changed', { server: this.server, tools: Object.freeze(this.tools.map((tool) => tool.name)), added: Object.freeze(added), removed: Object.freeze(removed) });
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
 * @throws {McpError} `connection` when the server cannot be reached.
 * @throws {McpError} `tool-definition` when a listed tool cannot be offered (unless `invalidTools: 'skip'`).
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
