import type { AnySchema, InferSchema } from '@keel/reliability';
import { RunSuspendedError } from '../errors/run-suspended-error';
import type { AgentEventName, AgentListener } from '../events/agent-events';
import { checkListener } from '../events/check-listener';
import { EventBus } from '../events/event-bus';
import { type RunExtras, startRun } from '../run/run-loop';
import { checkRunOptions } from '../run/state/check-run-options';
import type { RunConfig } from '../run/state/run-config';
import type { ResumeDecisions } from '../run/state/resume-decisions';
import { canonicalJson } from '@keel/reliability/internal';
import { agentDigest, type StateSigner, stateSigner } from '../run/state/state-signer';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { ContextOptions } from '../context/context-options';
import type { RunStore } from '../contracts/run-store';
import type { MemoryStore } from '../memory/memory-store';
import type { JournalListener } from '../run/journal/journal-writer';
import type { CallWrapper } from '../shared/call-wrapper';
import type { ToolGuard } from '../tools/guard';
import type { AnyTool, Tool } from '../tools/tool';
import type { RunRecordListener } from '../contracts/recorded-run';
import { type BuilderSettings, resolveConfig } from './resolve-config';
import type { AgentOptions, OutputFallbackOptions, OutputOptions, ReliabilityOptions } from '../contracts/agent-options';
import { type AgentIdentity, agentIdentity } from './agent-identity';
import { recordIdentity } from './identity-key';
import type { AgentStream } from './agent-stream';
import type { HasSchema, RunTyped } from './run-typed';
import { failedStream, openStream, type StreamOptions, streamHolds } from './open-stream';
import { type AsToolOptions, agentAsTool, type MessageInput } from './as-tool';
import { type ContinuedAgent, continueJournal, recoverRun, resumeSuspendedRun } from './continue-run';
import { RunIteration } from './run-iteration';
import { usageOfAttempts } from '../usage/usage-ledger';
import { startDurable } from './durable-start';
import type { RunInput, RunOptions, RunResult } from '../contracts/run-result';
import type { StreamSink } from '../contracts/stream-part';

/**
 * A built agent: immutable configuration, any number of concurrent runs that share nothing else.
 * Create one with `Agent.create({ provider, model })...build()`. `THasSchema` records whether it
 * has an output schema (then `runTyped()` can be called).
 */
export class Agent<TOutput = string, THasSchema extends boolean = HasSchema<TOutput>> {
  readonly #config: RunConfig;
  readonly #bus: EventBus;
  readonly #signer: StateSigner;
  readonly #identity: AgentIdentity;
  /**
   * What runs of this agent need to suspend (a signed state naming the agent) and to run as tools:
   * made once, as every run of the agent holds the same (a run in flight holds it until it ends).
   */
  readonly #extras: RunExtras;
  #id: Promise<string> | undefined;

  private constructor(config: RunConfig, options: AgentOptions) {
    this.#config = config;
    this.#bus = new EventBus(config.listeners);
    this.#signer = stateSigner(options.stateKey);
    this.#identity = agentIdentity(options, config);
    recordIdentity(this, this.#identity);
    this.#extras = Object.freeze({ sealing: Object.freeze({ signer: this.#signer, agent: () => this.#agentId(), ttlMs: this.#identity.stateTtlMs }) });
  }

  /** Starts a builder. */
  static create(options: AgentOptions): AgentBuilder<string, false> {
    return AgentBuilder.start(options, (config) => new Agent(config, options));
  }

  /** What continuing a run (`resume`, `recover`) needs of this agent, its parts sent to `sink` when streamed. */
  #continued(sink?: StreamSink, parent?: RunExtras['parent']): ContinuedAgent {
    return {
      store: this.#config.store,
      agentId: () => this.#agentId(),
      signer: this.#signer,
      start: (options, extras) => startRun(this.#config, this.#bus, [], options, sink, { ...this.#extras, ...(parent ? { parent } : {}), ...extras }),
      usageOf: (attempts) => usageOfAttempts(this.#config.pricing, attempts),
    };
  }

  /** The id naming this agent in its states: the declared `id`, or a digest of its tools and output schema. */
  #agentId(): Promise<string> {
    return (this.#id ??= this.#identity.id === undefined ? agentDigest(this.#identity.description, canonicalJson) : Promise.resolve(this.#identity.id));
  }

  /**
   * The id naming this agent in the states it suspends with: its declared `id`, or a digest of its
   * tools' names and input schemas and its output schema. A state resumes only on an agent with
   * the same id (and the same `stateKey`).
   */
  id(): Promise<string> {
    return this.#agentId();
  }

  /**
   * Adds an event listener to this agent: it hears every run started afterwards, and runs already
   * going from their next event. Returns the function that removes it. Listeners only observe: a
   * throw is reported as `listener.error` and never changes a run.
   */
  on<E extends AgentEventName>(event: E, listener: AgentListener<E>): () => void {
    checkListener(event, listener);
    return this.#bus.on(event, listener);
  }

  /**
   * Runs the agent to a final answer.
   * @throws {AbortedError} when the signal aborts.
   * @throws {ReliabilityFailFastError} when the gate stops (with every attempt recorded).
   * @throws {MaxStepsExceededError} with the partial result.
   */
  run(input: RunInput, options?: RunOptions): Promise<RunResult<TOutput>> {
    const store = this.#config.store;
    if (store) return startDurable(store, () => this.#agentId(), options, this.#extras, (checked, extras) => startRun(this.#config, this.#bus, input, checked, undefined, extras)) as Promise<RunResult<TOutput>>;
    return startRun(this.#config, this.#bus, input, options, undefined, this.#extras) as Promise<RunResult<TOutput>>;
  }

  /**
   * Continues an unfinished durable run (`.durable(store)`) from its journal, in any process sharing
   * the store: completed model calls and finished tool calls are not made again; an interrupted
   * call runs again with its idempotency key when its tool is `none` or `idempotent`, and a `once`
   * call suspends the run as an unknown outcome. A finished run gives its result back. This process
   * becomes the run's owner: a worker still running it is refused its next entry (docs/durable-runs.md).
   * @throws {DurableRunError} when the store has no journal of the run, another agent or tenant's,
   *   or one that was changed (`tampered`): nothing runs.
   * @throws {AgentConfigurationError} on an agent without a run store.
   * @throws what `run()` throws, for the rest of the run.
   */
  async recover(runId: string, options: Pick<RunOptions, 'signal' | 'timeoutMs' | 'tenant'> = {}): Promise<RunResult<TOutput>> {
    return (await recoverRun(this.#continued(), runId, options)) as RunResult<TOutput>;
  }

  /**
   * Continues a suspended run (`result.status === 'suspended'`) from its `state`, as it was or
   * after a JSON round trip, without asking the model again for the suspended step: approved
   * calls are checked again (schema and guards) and run, rejected ones give the model an error
   * result coded `approval-rejected` with the reason; then the loop goes on. Usage, budgets and
   * attempt records continue from the state; the run keeps its `runId` and conversation. Every
   * pending call must be decided, once. Each state is resumed once per process: a replay, or a
   * second resume running at the same time, is refused (across processes, see docs/approvals.md);
   * a resume that fails before any decided call began gives the state back.
   * @throws {RunStateError} when the state is not one this agent made and signed (changed,
   *   another agent's, another version, another key) or was resumed already, or when the
   *   decisions do not fit the pending calls: nothing runs then.
   * @throws what `run()` throws, for the rest of the run.
   */
  async resume(state: unknown, decisions: ResumeDecisions, options: Pick<RunOptions, 'signal' | 'timeoutMs' | 'tenant'> = {}): Promise<RunResult<TOutput>> {
    return (await resumeSuspendedRun(this.#continued(), state, decisions, options)) as RunResult<TOutput>;
  }

  /**
   * This agent as a tool of another agent. The model calls it with `{ message }` (or the `input`
   * schema given, whose validated value the agent receives as JSON text); the tool's result is the
   * agent's validated value (its own retries and re-asks happen inside), or its text without an
   * output schema. A failure of the agent is an error result for the calling model, never a crash
   * of the calling run; an abort or deadline of the calling run (or the tool's timeout) aborts it.
   * Its model calls count in the calling run's usage and PreCheck budgets as they happen, and its
   * events carry the calling run's id as `parentRunId`.
   */
  asTool(options: AsToolOptions<undefined>): Tool<MessageInput, TOutput>;
  asTool<S extends AnySchema>(options: AsToolOptions<S>): Tool<InferSchema<S>, TOutput>;
  asTool(options: AsToolOptions<AnySchema | undefined>): Tool<unknown, TOutput> {
    return agentAsTool<TOutput>(options, (input, runOptions, parent, sink, resume) =>
      (resume ? resumeSuspendedRun(this.#continued(sink, parent), resume.state, resume.decisions, runOptions as { signal: AbortSignal }) : startRun(this.#config, this.#bus, input, runOptions, sink, { ...this.#extras, ...(parent ? { parent } : {}) })) as Promise<RunResult<TOutput>>,
    );
  }

  /**
   * Runs the agent and returns the validated value: the typed shortcut for `run().value`. The
   * type comes from the output schema; `runTyped<Refund>(...)` names it (it must fit the schema's).
   * Only an agent built with an output schema has it: on one without, a call is a type error.
   * @throws {AgentConfigurationError} without an output schema (reached only past the types).
   * @throws {RunSuspendedError} when the run suspends for approvals (its `result.state` resumes it; `resume()` returns the result).
   */
  readonly runTyped: RunTyped<TOutput, THasSchema> = (async (input: RunInput, options: RunOptions = {}): Promise<unknown> => {
    if (!this.#config.output) throw new AgentConfigurationError({ setting: 'outputSchema', message: 'runTyped() needs an output schema' });
    const result = await this.run(input, options);
    if (result.status === 'suspended') throw new RunSuspendedError({ result });
    return result.value;
  }) as unknown as RunTyped<TOutput, THasSchema>;

  /** Runs the agent one step at a time, or continues a journal so read (see {@link RunIteration}). */
  iter(input: RunInput | { readonly journal: readonly unknown[] }, options: RunOptions = {}): RunIteration<TOutput> {
    return new RunIteration<TOutput>(async (gate, stopped) => {
      const checked = checkRunOptions(options);
      const runOptions = { ...checked, signal: checked.signal ? AbortSignal.any([checked.signal, stopped]) : stopped };
      if (typeof input === 'object' && !Array.isArray(input) && 'journal' in input) return (await continueJournal(this.#continued(), input.journal, runOptions, gate)) as RunResult<TOutput>;
      const extras = { ...this.#extras, gate };
      const store = this.#config.store;
      if (store) return (await startDurable(store, () => this.#agentId(), runOptions, extras, (durable, withStore) => startRun(this.#config, this.#bus, input, durable, undefined, withStore))) as RunResult<TOutput>;
      return (await startRun(this.#config, this.#bus, input, runOptions, undefined, extras)) as RunResult<TOutput>;
    });
  }

  /**
   * Runs the agent as a stream of typed parts (text and tool-call deltas, tool results, step
   * boundaries, validation failures and retries, the final result). With an output schema, text
   * is held until it validates unless `textMode` is `pass-through`.
   */
  stream(input: RunInput, options: RunOptions & StreamOptions = {}): AgentStream<TOutput> {
    let checked: typeof options;
    try {
      checked = checkRunOptions(options);
    } catch (error) {
      return failedStream(error);
    }
    const { textMode: _mode, signal: _signal, onSuspended: _suspended, ...runOptions } = checked;
    const store = this.#config.store;
    return openStream<TOutput>({
      ...streamHolds(this.#config),
      options: checked,
      start: (signal, sink) =>
        (store
          ? startDurable(store, () => this.#agentId(), { ...runOptions, signal }, this.#extras, (durable, extras) => startRun(this.#config, this.#bus, input, durable, sink, extras))
          : startRun(this.#config, this.#bus, input, { ...runOptions, signal }, sink, this.#extras)) as Promise<RunResult<TOutput>>,
    });
  }

  /**
   * `resume()` as a stream: the same parts, UI message stream and `toUIMessageStreamResponse()`
   * as `stream()`, for a suspended run continued from its `state` with the caller's decisions (see
   * `resume()` for what is checked and refused; a refusal is the stream's error, nothing runs).
   */
  resumeStream(state: unknown, decisions: ResumeDecisions, options: Pick<RunOptions, 'signal' | 'timeoutMs' | 'tenant'> & StreamOptions = {}): AgentStream<TOutput> {
    const { textMode: _mode, onSuspended: _suspended, ...continuation } = options;
    return openStream<TOutput>({
      ...streamHolds(this.#config),
      options,
      start: (signal, sink) => resumeSuspendedRun(this.#continued(sink), state, decisions, { ...continuation, signal }) as Promise<RunResult<TOutput>>,
    });
  }
}

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
   * Calls `listener` once when each run of every agent built from this builder ends (complete,
   * failed, aborted or suspended), with the run's records (see {@link RecordedRun}). An observer:
   * a throw is reported as `listener.error`.
   */
  onRecord(listener: RunRecordListener): AgentBuilder<TOutput, THasSchema> {
    if (typeof listener !== 'function') throw new AgentConfigurationError({ setting: 'onRecord', message: `onRecord() takes a function, got ${typeof listener}` });
    return this.with({ recorders: [...this.state.recorders, listener] });
  }

  /**
   * Calls `listener` with each entry of each run's journal as it is written, each once (a resumed
   * run's entries follow those before its suspension): for exporters that append, such as a trace
   * file. An observer: a throw is reported as `listener.error` (its `event` is `journal`).
   */
  onJournal(listener: JournalListener): AgentBuilder<TOutput, THasSchema> {
    if (typeof listener !== 'function') throw new AgentConfigurationError({ setting: 'onJournal', message: `onJournal() takes a function, got ${typeof listener}` });
    return this.with({ journalListeners: [...this.state.journalListeners, listener] });
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
    return new AgentBuilder<string, false>({ options, construct, tools: [], guards: [], listeners: [], recorders: [], journalListeners: [], callWrappers: [], repeated: [] });
  }
}

/**
 * An integration, attached with `builder.use(extension)`: a function from builder to builder that
 * adds listeners, tools, guards or rules (`telemetry()`, `consoleTrace()`, `recordTrace()`).
 * Generic over the builder's output type, so one extension fits every agent.
 */
export type Extension = <TOutput>(builder: AgentBuilder<TOutput>) => AgentBuilder<TOutput>;
