import { reduceError } from '@keel/reliability/internal';
import type { AgentEventName, AgentEvents, AgentListener } from './agent-events';

/** A listener registration: the event name and its listener. */
export interface ListenerEntry {
  readonly event: AgentEventName;
  readonly listener: AgentListener<AgentEventName>;
}

/**
 * The typed event bus. Listeners are isolated: a throw or rejected promise emits `listener.error`
 * (whose own listener failures are dropped) and never reaches the run.
 */
export class EventBus {
  /**
   * Listeners by event. Each list is replaced, never changed in place, when a listener is added or
   * removed (copy-on-write), so an emit walks the current list without copying it. Read-only
   * outside this class: `listeners.has(event)` is how a run asks whether anything listens.
   */
  readonly listeners = new Map<AgentEventName, readonly AgentListener<AgentEventName>[]>();

  constructor(entries: readonly ListenerEntry[] = []) {
    for (const { event, listener } of entries) this.add(event, listener);
  }

  private add(event: AgentEventName, listener: AgentListener<AgentEventName>): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }

  /** True when anything listens to `event`, so callers can skip building a payload. */
  has(event: AgentEventName): boolean {
    return this.listeners.has(event);
  }

  /** Adds a listener; returns the function that removes it (calling it twice is harmless). */
  on<E extends AgentEventName>(event: E, listener: AgentListener<E>): () => void {
    // A wrapper per registration, so the same function added twice is removed once per call.
    const registered = ((payload: AgentEvents[E]) => listener(payload)) as AgentListener<AgentEventName>;
    this.add(event, registered);
    return () => {
      const current = this.listeners.get(event);
      if (!current?.includes(registered)) return;
      const rest = current.filter((entry) => entry !== registered);
      if (rest.length === 0) this.listeners.delete(event);
      else this.listeners.set(event, rest);
    };
  }

  /** Delivers a frozen payload to every listener of `event`. */
  emit<E extends AgentEventName>(event: E, payload: AgentEvents[E]): void {
    const listeners = this.listeners.get(event) as readonly AgentListener<E>[] | undefined;
    if (listeners === undefined) return;
    Object.freeze(payload);
    for (const listener of listeners) {
      try {
        const returned = listener(payload);
        if (returned && typeof (returned as Promise<void>).then === 'function') {
          (returned as Promise<void>).then(undefined, (error: unknown) => this.reportListenerError(event, payload, error));
        }
      } catch (error) {
        this.reportListenerError(event, payload, error);
      }
    }
  }

  private reportListenerError(event: AgentEventName, payload: AgentEvents[AgentEventName], error: unknown): void {
    if (event === 'listener.error') return;
    const { name, message } = reduceError(error);
    this.emit('listener.error', { runId: payload.runId, step: payload.step, timestamp: Date.now(), event, errorName: name, message });
  }
}
