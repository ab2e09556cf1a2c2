import { checkListener } from '../events/check-listener';
import type { AnySchema, InferSchema } from '@keel/reliability';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { beginDurableRun, durableJournal, openCheckpoint } from '../durable/durable-run';
import type { RunStore } from '../durable/run-store';
import { RunSuspendedError } from '../errors/run-suspended-error';
import type { AgentEventName, AgentListener } from '../events/agent-events';
import { EventBus } from '../events/event-bus';
import { checkRunOptions } from '../run/state/check-run-options';
import { type RunExtras, startRun } from '../run/run-loop';
import type { RunConfig } from '../run/state/run-config';
import { checkDecisions, type ResumeDecisions } from '../run/state/resume-decisions';
import { claimResume } from '../run/state/resumed-suspensions';
import { canonicalJson, openState } from '../run/state/run-state-snapshot';
import { agentDigest, type StateSigner, stateSigner } from '../run/state/state-signer';
import { type AgentIdentity, agentIdentity } from './agent-identity';
import type { Tool } from '../tools/tool';
import { AgentBuilder } from './agent-builder';
import type { AgentOptions } from './agent-options';
import { AgentStream } from './agent-stream';
import { type AsToolOptions, agentAsTool, type MessageInput } from './as-tool';
import type { RunInput, RunOptions, RunResult } from './run-result';
import type { StreamSink } from './stream-part';

/**
 * Whether an agent with output type `TOutput` validates its answers against an output schema,
 * when the type does not say: an output other than `string` needs one; a `string` one may or not.
 */
export type HasSchema<TOutput> = string extends TOutput ? boolean : true;

/** What `runTyped()` is on an agent without an output schema: nothing to call, and the reason why. */
export interface RunTypedNeedsOutputSchema {
  readonly 'runTyped() needs an output schema: give the builder .outputSchema(schema), or use run()': never;
}

/** `runTyped()`: callable on an agent with an output schema only. */
export type RunTyped<TOutput, THasSchema extends boolean> = THasSchema extends true
  ? <T extends TOutput = TOutput>(input: RunInput, options?: RunOptions) => Promise<T>
  : RunTypedNeedsOutputSchema;

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
  #id: Promise<string> | undefined;

  private constructor(config: RunConfig, options: AgentOptions) {
    this.#config = config;
    this.#bus = new EventBus(config.listeners);
    this.#signer = stateSigner(options.stateKey);
    this.#identity = agentIdentity(options, config);
  }

  /** Starts a builder. */
  static create(options: AgentOptions): AgentBuilder<string, false> {
    return AgentBuilder.start(options, (config) => new Agent(config, options));
  }

  /** What runs of this agent need to suspend (a signed state naming the agent) and to run as tools. */
  get #extras(): RunExtras {
    return { sealing: { signer: this.#signer, agent: () => this.#agentId(), ttlMs: this.#identity.stateTtlMs } };
  }

  /**
   * A durable run's start: the run id (given, or made), refused when the store holds it already;
   * this process becomes the run's owner and `start` runs it with its journal.
   */
  async #durable(store: RunStore, given: RunOptions | undefined, start: (options: RunOptions, extras: RunExtras) => Promise<RunResult<unknown>>): Promise<RunResult<TOutput>> {
    const options = checkRunOptions(given ?? {});
    const runId = options.runId ?? globalThis.crypto.randomUUID();
    const journal = await beginDurableRun(store, runId, { agentId: await this.#agentId(), tenant: options.tenant });
    return (await start({ ...options, runId }, { ...this.#extras, journal })) as RunResult<TOutput>;
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
    if (store) return this.#durable(store, options, (checked, extras) => startRun(this.#config, this.#bus, input, checked, undefined, extras));
    return startRun(this.#config, this.#bus, input, options, undefined, this.#extras) as Promise<RunResult<TOutput>>;
  }

  /**
   * Continues an unfinished durable run (`.durable(store)`) from its last checkpoint, in this
   * process or any other sharing the store: model calls that completed are not asked again, tool
   * calls that finished are not run again, kept messages and usage carry over, and memory
   * receives the exchange once when the run ends. A call a crash interrupted runs again with the
   * same idempotency key when its tool's effect is `none` or `idempotent`; a `once` call never
   * does: the run suspends with it in `result.unknownOutcomes`, for `resume(state, { outcomes, retry })`.
   * Recovering a finished run gives its result back (a suspended one with its `state`), running nothing.
   * This process becomes the run's owner: a worker still running it is refused its next checkpoint.
   * @throws {DurableRunError} when the store has no checkpoint of the run, or another agent or
   *   tenant's: nothing runs.
   * @throws {AgentConfigurationError} on an agent without a run store.
   * @throws what `run()` throws, for the rest of the run.
   */
  async recover(runId: string, options: Pick<RunOptions, 'signal' | 'timeoutMs' | 'tenant'> = {}): Promise<RunResult<TOutput>> {
    const store = this.#config.store;
    if (!store) throw new AgentConfigurationError({ setting: 'durable', message: 'recover() needs a durable agent: Agent.create(...).durable(store)' });
    const runOptions = continuationOptions(options);
    const owner = { agentId: await this.#agentId(), tenant: runOptions.tenant };
    const stored = await openCheckpoint(store, runId, owner);
    if ('result' in stored) return stored.result as RunResult<TOutput>;
    const journal = durableJournal(store, await store.acquire(runId), owner);
    return (await startRun(this.#config, this.#bus, [], runOptions, undefined, { ...this.#extras, journal, recovered: stored.run })) as RunResult<TOutput>;
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
    const runOptions = continuationOptions(options);
    const opened = await openState(state, await this.#agentId(), this.#signer, runOptions.tenant);
    const decided = checkDecisions(opened.pending, opened.unknown ?? [], decisions);
    // Of two resumes of one state (a replay, or two at once), one runs: in this process, and with
    // a run store wherever the store is shared; spent states are remembered until they expire.
    const claim = await claimResume(opened, this.#config.store);
    let began = false;
    const resume = { state: opened, decisions: decided, began: () => void (began = true) };
    const store = this.#config.store;
    try {
      // A durable agent's resumed run is durable too: this process becomes its owner.
      const journal = store ? durableJournal(store, await store.acquire(opened.runId), { agentId: opened.agent, tenant: opened.tenant }) : undefined;
      return (await startRun(this.#config, this.#bus, [], runOptions, undefined, { ...this.#extras, resume, ...(journal ? { journal } : {}) })) as RunResult<TOutput>;
    } catch (error) {
      // Nothing ran yet (memory could not be loaded, an abort came first): the state may be resumed again.
      if (!began) await claim.release();
      throw error;
    }
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
    return agentAsTool<TOutput>(options, (input, runOptions, parent) =>
      startRun(this.#config, this.#bus, input, runOptions, undefined, { ...this.#extras, ...(parent ? { parent } : {}) }) as Promise<RunResult<TOutput>>,
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
    const store = this.#config.store;
    const run = (sink: StreamSink): Promise<RunResult<TOutput>> =>
      store
        ? this.#durable(store, { ...runOptions, signal: controller.signal }, (durable, extras) => startRun(this.#config, this.#bus, input, durable, sink, extras))
        : (startRun(this.#config, this.#bus, input, { ...runOptions, signal: controller.signal }, sink, this.#extras) as Promise<RunResult<TOutput>>);
    const start = (sink: StreamSink) => run(sink).finally(() => signal?.removeEventListener('abort', forward));
    // Shown text the gate may still reject: every attempt's with an output schema in pass-through
    // mode; without one, a text answer that the user's rules judge.
    const takenBack = this.#config.output ? textMode === 'pass-through' : this.#config.reAskRules.before.length > 0;
    return new AgentStream<TOutput>(start, textMode, (reason) => controller.abort(reason), takenBack);
  }
}

/** The options a continuation (`resume`, `recover`) takes from its caller, checked. */
function continuationOptions(options: Pick<RunOptions, 'signal' | 'timeoutMs' | 'tenant'> | undefined): RunOptions {
  return checkRunOptions({ ...(options?.signal === undefined ? {} : { signal: options.signal }), ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), ...(options?.tenant === undefined ? {} : { tenant: options.tenant }) });
}
