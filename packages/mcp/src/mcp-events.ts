import type { Tool } from '@keel/core';
import type { McpConnectionError } from './errors/mcp-connection-error';
import type { McpToolDefinitionError } from './errors/mcp-tool-definition-error';

/** What the tools' handle reports, by event name. Every payload names the server. */
export interface McpEvents {
  /** The server's tool list changed (its list-changed notification, or `refresh()`): `tools` is the new set. */
  readonly 'tools.changed': { readonly server: string; readonly tools: readonly Tool[]; readonly added: readonly string[]; readonly removed: readonly string[] };
  /** A listed tool was left out (`invalidTools: 'skip'`): its schema or name cannot be used. */
  readonly 'tool.refused': { readonly server: string; readonly error: McpToolDefinitionError };
  /** A refresh after a list-changed notification failed; the previous tools stay current. */
  readonly 'refresh.failed': { readonly server: string; readonly error: unknown };
  /** The connection ended (crash, exit, network, `close()`); calls in flight and later calls fail with `error`. */
  readonly 'server.closed': { readonly server: string; readonly error: McpConnectionError };
  /** A listener threw; the error is reported here and changes nothing else. */
  readonly 'listener.error': { readonly server: string; readonly event: McpEventName; readonly error: unknown };
}

/** The names of {@link McpEvents}. */
export type McpEventName = keyof McpEvents;

/** A listener of one event. */
export type McpListener<E extends McpEventName> = (payload: McpEvents[E]) => void;

/** A small typed event bus whose listeners cannot break the caller. */
export class McpEventBus {
  private readonly listeners = new Map<McpEventName, Set<McpListener<McpEventName>>>();

  constructor(private readonly server: () => string) {}

  on<E extends McpEventName>(event: E, listener: McpListener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const entry = listener as McpListener<McpEventName>;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  emit<E extends McpEventName>(event: E, payload: McpEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        if (event !== 'listener.error') this.emit('listener.error', { server: this.server(), event, error });
      }
    }
  }
}
