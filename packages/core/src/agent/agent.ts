import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { AgentEventName, AgentListener } from '../events/agent-events';
import { EventBus } from '../events/event-bus';
import { checkRunOptions } from '../run/check-run-options';
import { reactLoop } from '../run/react-loop';
import type { RunConfig } from '../run/run-config';
import { AgentBuilder } from './agent-builder';
import type { AgentOptions } from './agent-options';
import { AgentStream } from './agent-stream';
import type { RunInput, RunOptions, RunResult } from './run-result';
import type { StreamSink } from './stream-part';

/**
 * A built agent: immutable configuration, any number of concurrent runs that share nothing else.
 * Create one with `Agent.create({ provider, model })...build()`.
 */
export class Agent<TOutput = string> {
  readonly #config: RunConfig;
  readonly #bus: EventBus;

  private constructor(config: RunConfig) {
    this.#config = config;
    this.#bus = new EventBus(config.listeners);
  }

  /** Starts a builder. */
  static create(options: AgentOptions): AgentBuilder<string> {
    return AgentBuilder.start(options, (config) => new Agent(config));
  }

  /**
   * Adds an event listener to this agent: it hears every run started afterwards, and runs already
   * going from their next event. Returns the function that removes it. Listeners only observe: a
   * throw is reported as `listener.error` and never changes a run.
   */
  on<E extends AgentEventName>(event: E, listener: AgentListener<E>): () => void {
    return this.#bus.on(event, listener);
  }

  /**
   * Runs the agent to a final answer.
   * @throws {AbortedError} when the signal aborts.
   * @throws {ReliabilityFailFastError} when the gate stops (with every attempt recorded).
   * @throws {MaxStepsExceededError} with the partial result.
   */
  run(input: RunInput, options: RunOptions = {}): Promise<RunResult<TOutput>> {
    return reactLoop(this.#config, this.#bus, input, options) as Promise<RunResult<TOutput>>;
  }

  /**
   * Runs the agent and returns the validated value: the typed shortcut for `run().value`. The
   * type comes from the output schema; `runTyped<Refund>(...)` names it (it must fit the schema's).
   * @throws {AgentConfigurationError} without an output schema.
   */
  async runTyped<T extends TOutput = TOutput>(input: RunInput, options: RunOptions = {}): Promise<T> {
    if (!this.#config.output) throw new AgentConfigurationError({ setting: 'outputSchema', message: 'runTyped() needs an output schema' });
    return (await this.run(input, options)).value as T;
  }

  /**
   * Runs the agent as a stream of typed parts (text and tool-call deltas, tool results, step
   * boundaries, validation failures and retries, the final result). With an output schema, text
   * is held until it validates unless `textMode` is `pass-through`.
   */
  stream(input: RunInput, options: RunOptions & { readonly textMode?: 'buffer' | 'pass-through' } = {}): AgentStream<TOutput> {
    let checked: typeof options;
    try {
      checked = checkRunOptions(options);
    } catch (error) {
      // As in `run()`: a bad option is the run's error, delivered through `result` and the iterator.
      return new AgentStream<TOutput>(() => Promise.reject(error), 'buffer', () => undefined);
    }
    const { textMode = 'buffer', signal, ...runOptions } = checked;
    // The stream owns a controller so that it can be cancelled (or abandoned by a `break`).
    const controller = new AbortController();
    const forward = () => controller.abort(signal?.reason);
    if (signal?.aborted) forward();
    else signal?.addEventListener('abort', forward, { once: true });
    const start = (sink: StreamSink) =>
      (reactLoop(this.#config, this.#bus, input, { ...runOptions, signal: controller.signal }, sink) as Promise<RunResult<TOutput>>).finally(() =>
        signal?.removeEventListener('abort', forward),
      );
    return new AgentStream<TOutput>(start, textMode, (reason) => controller.abort(reason));
  }
}
