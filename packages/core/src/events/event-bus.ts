import { isPromiseLike, reduceError } from '@keel/reliability/internal';
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

  /**
   * Adds a listener; returns the function that removes it (calling it twice is harmless). The
   * listener itself is kept, never a wrapper (an emit calls it directly): the same function added
   * twice is called twice, and each remover takes away one of its registrations.
   */
  on<E extends AgentEventName>(event: E, listener: AgentListener<E>): () => void {
    const registered = listener as AgentListener<AgentEventName>;
    this.add(event, registered);
    let removed = false;
    return () => {
      const current = this.listeners.get(event);
      const index = removed || !current ? -1 : current.lastIndexOf(registered);
      if (index === -1) return;
      removed = true;
      const rest = current?.filter((_, at) => at !== index) ?? [];
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
        if (isPromiseLike(returned)) returned.then(undefined, (error: unknown) => this.reportFailure(event, payload, error));
      } catch (error) {
        this.reportFailure(event, payload, error);
      }
    }
  }

  /**
   * Reports an observer's failure as `listener.error`: an event listener's (`event` names the
   * event) or another observer's of the run (`record` for a record listener). A `listener.error`
   * listener's own failure is dropped, so the reports cannot loop.
   */
  reportFailure(event: string, run: { readonly runId: string; readonly step: number }, error: unknown): void {
    if (event === 'listener.error') return;
    const { name, message } = reduceError(error);
    this.emit('listener.error', { runId: run.runId, step: run.step, timestamp: Date.now(), event, errorName: name, message });
  }
}
