import type { RunContext } from './state/run-context';
import type { ToolSource, ToolSourceEmit } from '../tools/tool-source';

/**
 * A run observing the sources of its tools (`tool.source`, an MCP server's connection) from its
 * start to its end: each event of a source is an event of the run, at the step the run is in.
 */
export class ToolSourceObservation {
  #current: RunContext;
  readonly #stops: readonly (() => void)[];

  constructor(sources: readonly ToolSource[], context: RunContext) {
    this.#current = context;
    const emit: ToolSourceEmit = (event, payload) => this.#current.emit(event, payload);
    this.#stops = sources.map((source) => source.observe(emit));
  }

  /** The run goes into the step of `context`: the sources' events name that step from now on. */
  enter(context: RunContext): RunContext {
    this.#current = context;
    return context;
  }

  /** The run ended: no source holds it any longer. */
  stop(): void {
    for (const stop of this.#stops) stop();
  }
}
