import type { AnySchema, InferSchema } from '@keel/reliability';
import type { AgentEventName, AgentListener } from '../events/agent-events';
import type { MemoryStore } from '../memory/memory-store';
import type { RunStore } from '../durable/run-store';
import type { RunConfig } from '../run/state/run-config';
import type { ToolGuard } from '../tools/guard';
import { checkListener } from '../events/check-listener';
import type { AnyTool, Tool } from '../tools/tool';
import type { Agent, HasSchema } from './agent';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { AgentOptions, OutputFallbackOptions, OutputOptions, ReliabilityOptions } from './agent-options';
import type { CallWrapper } from '../shared/call-wrapper';
import type { ContextOptions } from '../context/context-options';
import { type BuilderSettings, resolveConfig } from './resolve-config';

/** Makes the agent from a validated configuration (given by `Agent.create`, which owns the constructor). */
type ConstructAgent = (config: RunConfig) => Agent<unknown>;

interface BuilderState extends BuilderSettings {
  readonly construct: ConstructAgent;
}

/**
 * The immutable fluent builder of an {@link Agent}: every call returns a new builder, so a
 * builder can be shared and branched. `build()` validates the whole configuration.
 * Start one with `Agent.create()`.
 */
export class AgentBuilder<TOutput = string, THasSchema extends boolean = HasSchema<TOutput>> {
  private constructor(private readonly state: BuilderState) {}

  private with<T = TOutput, F extends boolean = THasSchema>(changes: Partial<BuilderState>, single?: keyof BuilderState): AgentBuilder<T, F> {
    const given = changes.repeated ?? this.state.repeated;
    const repeated = single !== undefined && this.state[single] !== undefined ? [...given, single] : given;
    return new AgentBuilder<T, F>({ ...this.state, ...changes, repeated });
  }

  /** Sets the system prompt (once). */
  system(text: string): AgentBuilder<TOutput, THasSchema> {
    return this.with({ system: text }, 'system');
  }

  /** Adds a tool. */
  tool<TInput, TResult>(tool: Tool<TInput, TResult>): AgentBuilder<TOutput, THasSchema> {
    return this.with({ tools: [...this.state.tools, tool as unknown as AnyTool] });
  }

  /** Adds several tools. */
  tools(tools: readonly AnyTool[]): AgentBuilder<TOutput, THasSchema> {
    return this.with({ tools: [...this.state.tools, ...tools] });
  }

  /** Adds guards run on every tool call's arguments, first call and re-asks alike. */
  guards(guards: readonly ToolGuard[]): AgentBuilder<TOutput, THasSchema> {
    return this.with({ guards: [...this.state.guards, ...guards] });
  }

  /** Sets the memory store (once). */
  memory(store: MemoryStore): AgentBuilder<TOutput, THasSchema> {
    return this.with({ memory: store }, 'memory');
  }

  /**
   * How runs stay inside the model's context window (once). On by default: before a step whose
   * estimated request passes `compactAt` (0.8) of the window, the run compacts what it sends,
   * cheapest first (repeated reads, then old tool results' bodies, then a summary of older turns
   * by `summarize`); a vendor's context-length refusal is compacted and retried once. What is
   * kept (and stored in memory, unless `persist: true`) never changes. `false` turns it off.
   * See docs/long-runs.md.
   */
  context(options: ContextOptions | false): AgentBuilder<TOutput> {
    return this.with({ context: options }, 'context');
  }

  /**
   * Makes the agent's runs durable on `store` (once): approvals are spent once wherever the store
   * is shared (a second resume of one state, in any process, is refused `already-resumed`).
   * `memoryRunStore()` serves one process; `redisRunStore()` in `@keel/redis` a fleet.
   */
  durable(store: RunStore): AgentBuilder<TOutput> {
    return this.with({ store }, 'store');
  }

  /** Adds an event listener to every agent built from this builder (see also `agent.on()`). */
  on<E extends AgentEventName>(event: E, listener: AgentListener<E>): AgentBuilder<TOutput, THasSchema> {
    checkListener(event, listener);
    return this.with({ listeners: [...this.state.listeners, { event, listener: listener as AgentListener<AgentEventName> }] });
  }

  /**
   * Wraps every model call and tool execution of the agent's runs (e.g. in a tracing context);
   * additive, the first given outermost. For integrations: see {@link CallWrapper}.
   */
  wrapCalls(wrapper: CallWrapper): AgentBuilder<TOutput, THasSchema> {
    return this.with({ callWrappers: [...this.state.callWrappers, wrapper] });
  }

  /**
   * Validates final answers against a schema (once); `runTyped()` returns the typed value. `mode`
   * says how the answer is asked for (default `auto`: the provider's native structured output
   * where it declares it for the model, else the prompt); Keel validates the full schema in every
   * mode. See {@link OutputOptions}.
   */
  outputSchema<S extends AnySchema>(schema: S, options: OutputOptions = {}): AgentBuilder<InferSchema<S>, true> {
    return this.with<InferSchema<S>, true>({ outputSchema: schema, outputOptions: options }, 'outputSchema');
  }

  /** Degraded answers when the model gives no valid one (once). Provider failover is `failover` in `Agent.create()`. */
  outputFallback(options: OutputFallbackOptions<TOutput>): AgentBuilder<TOutput, THasSchema> {
    return this.with({ outputFallback: options as OutputFallbackOptions<unknown> }, 'outputFallback');
  }

  /**
   * Adds reliability gate rules: `preCheck` before every model call, `postDecide` after it (first
   * match wins), then — unless `defaults: false` — the strict-output rules (with an output schema)
   * and the transient-error retries. Additive: each call appends its rules after those already
   * given (so extensions can add theirs); `defaults` may be set once.
   */
  reliability(options: ReliabilityOptions): AgentBuilder<TOutput, THasSchema> {
    const given = this.state.reliability;
    if (given === undefined) return this.with({ reliability: options });
    const defaults = options.defaults ?? given.defaults;
    const merged: ReliabilityOptions = {
      preCheck: [...(given.preCheck ?? []), ...(options.preCheck ?? [])],
      postDecide: [...(given.postDecide ?? []), ...(options.postDecide ?? [])],
      ...(defaults === undefined ? {} : { defaults }),
    };
    const conflicting = given.defaults !== undefined && options.defaults !== undefined && given.defaults !== options.defaults;
    return this.with({ reliability: merged, ...(conflicting ? { repeated: [...this.state.repeated, 'reliability.defaults'] } : {}) });
  }

  /**
   * Attaches an integration: `Agent.create(…).use(telemetry()).use(consoleTrace())`. The one way
   * integrations attach; an extension returns the builder it was given, extended.
   * @throws {AgentConfigurationError} when the extension does not return a builder.
   */
  use(extension: Extension): AgentBuilder<TOutput, THasSchema> {
    if (typeof extension !== 'function') throw new AgentConfigurationError({ setting: 'use', message: `use() takes an extension (a function from builder to builder), got ${typeof extension}` });
    const extended = extension(this as unknown as AgentBuilder<TOutput>);
    if (!(extended instanceof AgentBuilder)) throw new AgentConfigurationError({ setting: 'use', message: 'an extension must return the builder it was given, extended' });
    return extended as AgentBuilder<TOutput, THasSchema>;
  }

  /**
   * Validates the configuration and builds the agent.
   * @throws {AgentConfigurationError} naming the setting at fault.
   */
  build(): Agent<TOutput, THasSchema> {
    return this.state.construct(resolveConfig(this.state)) as unknown as Agent<TOutput, THasSchema>;
  }

  /** @internal Use `Agent.create()`. */
  static start(options: AgentOptions, construct: ConstructAgent): AgentBuilder<string, false> {
    return new AgentBuilder<string, false>({ options, construct, tools: [], guards: [], listeners: [], callWrappers: [], repeated: [] });
  }
}

/**
 * An integration, attached with `builder.use(extension)`: a function from builder to builder that
 * adds listeners, tools, guards or rules (`telemetry()`, `consoleTrace()`, `recordTrace()`).
 * Generic over the builder's output type, so one extension fits every agent.
 */
export type Extension = <TOutput>(builder: AgentBuilder<TOutput>) => AgentBuilder<TOutput>;
