import { EventEmitter } from 'eventemitter3';
import { isPromiseLike, reduceError } from '@keel/reliability/internal';
import type { AgentEventName, AgentEvents, AgentListener } from './agent-events';

/** A listener registration: the event name and its listener. */
export interface ListenerEntry {
  readonly event: AgentEventName;
  readonly listener: AgentListener<AgentEventName>;
}

/** What the emitter holds for each event: a listener that never throws (see {@link EventBus.on}). */
type IsolatedListeners = { [E in AgentEventName]: (payload: AgentEvents[E]) => void };

/**
 * The typed event bus, on `eventemitter3`. Listeners are isolated: a throw or rejected promise
 * emits `listener.error` (whose own listener failures are dropped) and never reaches the run.
 */
export class EventBus {
  readonly #emitter = new EventEmitter<IsolatedListeners>();

  /**
   * How many listeners `event` has: the emitter's own method, so a run, which asks before each
   * event it would build (`RunContext.listens`), makes no call through this class.
   */
  readonly listenerCount: (event: AgentEventName) => number = this.#emitter.listenerCount.bind(this.#emitter);

  constructor(entries: readonly ListenerEntry[] = []) {
    for (const { event, listener } of entries) this.on(event, listener);
  }

  /** True when anything listens to `event`, so callers can skip building a payload. */
  has(event: AgentEventName): boolean {
    return this.listenerCount(event) > 0;
  }

  /**
   * Adds a listener; returns the function that removes it (calling it twice is harmless). Each
   * registration is its own isolated listener: the same function added twice is called twice, and
   * each remover takes away one of its registrations.
   */
  on<E extends AgentEventName>(event: E, listener: AgentListener<E>): () => void {
    const isolated = (payload: AgentEvents[E]): void => {
      try {
        const returned = listener(payload);
        if (isPromiseLike(returned)) returned.then(undefined, (error: unknown) => this.reportFailure(event, payload, error));
      } catch (error) {
        this.reportFailure(event, payload, error);
      }
    };
    this.#emitter.on(event, isolated as never);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#emitter.off(event, isolated as never);
    };
  }

  /** Delivers a frozen payload to every listener of `event`, in the order they were added. */
  emit<E extends AgentEventName>(event: E, payload: AgentEvents[E]): void {
    if (this.listenerCount(event) === 0) return;
    Object.freeze(payload);
    (this.#emitter.emit as (event: E, payload: AgentEvents[E]) => boolean)(event, payload);
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
