import { type AnySchema, defaultRules, type InferSchema, reduceError, strictOutputRules, toValidator } from '@keel/reliability';
import type { ModelResponse } from '../model/model-provider-v1';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { AgentEventName, AgentListener } from '../events/agent-events';
import type { ListenerEntry } from '../events/event-bus';
import type { MemoryStore } from '../memory/memory-store';
import type { ToolGuard } from '../tools/guard';
import { DEFAULT_MAX_TOOL_RESULT_BYTES } from '../tools/serialize-tool-result';
import type { AnyTool, Tool } from '../tools/tool';
import type { RunConfig } from '../run/run-config';
import type { Agent } from './agent';
import type { AgentOptions, OutputFallbackOptions, OutputOptions, RulesOptions } from './agent-options';

/** Makes the agent from a validated configuration (given by `Agent.create`, which owns the constructor). */
type ConstructAgent = (config: RunConfig) => Agent<unknown>;

interface BuilderState {
  readonly options: AgentOptions;
  readonly construct: ConstructAgent;
  readonly system?: string;
  readonly tools: readonly AnyTool[];
  readonly guards: readonly ToolGuard[];
  readonly memory?: MemoryStore;
  readonly listeners: readonly ListenerEntry[];
  readonly outputSchema?: AnySchema;
  readonly outputOptions?: OutputOptions;
  readonly outputFallback?: OutputFallbackOptions<unknown>;
  readonly rules?: RulesOptions;
  /** Single-valued settings given more than once, reported by `build()`. */
  readonly repeated: readonly string[];
}

const fail = (setting: string, message: string): never => {
  throw new AgentConfigurationError({ setting, message });
};

/** Unset, or a whole (hence finite) number of at least `min`. */
const isWholeAtLeast = (value: number | undefined, min: number) => value === undefined || (Number.isInteger(value) && value >= min);

/**
 * The PostDecide rules of step calls and of tool-argument re-asks, resolved once: the user's
 * first, then unless `defaults` is false the strict-output rules (steps with an output schema, so
 * adding e.g. a provider-fallback rule keeps feedback retries) and the default transient retries.
 */
function resolveRules(rules: RulesOptions | undefined, output: RunConfig['output']): Pick<RunConfig, 'stepRules' | 'reaskRules'> {
  const user = rules?.postDecide ?? [];
  if (rules?.defaults === false) return { stepRules: user, reaskRules: user };
  const defaults = defaultRules<ModelResponse>();
  const strict =
    output && output.options.strict !== false
      ? strictOutputRules<ModelResponse>({ maxRetries: (output.options.maxAttempts ?? 3) - 1, ...(output.options.retryOn ? { retryOn: output.options.retryOn } : {}) })
      : [];
  return { stepRules: [...user, ...strict, ...defaults], reaskRules: [...user, ...defaults] };
}

/**
 * The immutable fluent builder of an {@link Agent}: every call returns a new builder, so a
 * builder can be shared and branched. `build()` validates the whole configuration.
 */
export class AgentBuilder<TOutput = string> {
  private constructor(private readonly state: BuilderState) {}

  private with<T = TOutput>(changes: Partial<BuilderState>, single?: keyof BuilderState): AgentBuilder<T> {
    const repeated = single !== undefined && this.state[single] !== undefined ? [...this.state.repeated, single] : this.state.repeated;
    return new AgentBuilder<T>({ ...this.state, ...changes, repeated });
  }

  /** Sets the system prompt (once). */
  system(text: string): AgentBuilder<TOutput> {
    return this.with({ system: text }, 'system');
  }

  /** Adds a tool. */
  tool<TInput, TResult>(tool: Tool<TInput, TResult>): AgentBuilder<TOutput> {
    return this.with({ tools: [...this.state.tools, tool as unknown as AnyTool] });
  }

  /** Adds several tools. */
  tools(tools: readonly AnyTool[]): AgentBuilder<TOutput> {
    return this.with({ tools: [...this.state.tools, ...tools] });
  }

  /** Adds guards run on every tool call's arguments, first call and re-asks alike. */
  guards(guards: readonly ToolGuard[]): AgentBuilder<TOutput> {
    return this.with({ guards: [...this.state.guards, ...guards] });
  }

  /** Sets the memory store (once). */
  memory(store: MemoryStore): AgentBuilder<TOutput> {
    return this.with({ memory: store }, 'memory');
  }

  /** Adds an event listener. */
  on<E extends AgentEventName>(event: E, listener: AgentListener<E>): AgentBuilder<TOutput> {
    return this.with({ listeners: [...this.state.listeners, { event, listener: listener as AgentListener<AgentEventName> }] });
  }

  /** Validates final answers against a schema (once); `runTyped()` returns the typed value. */
  outputSchema<S extends AnySchema>(schema: S, options: OutputOptions = {}): AgentBuilder<InferSchema<S>> {
    return this.with<InferSchema<S>>({ outputSchema: schema, outputOptions: options }, 'outputSchema');
  }

  /** Degraded answers when the model gives no valid one (once). */
  outputFallback(options: OutputFallbackOptions<TOutput>): AgentBuilder<TOutput> {
    return this.with({ outputFallback: options as OutputFallbackOptions<unknown> }, 'outputFallback');
  }

  /** Reliability rules (once): PreCheck and PostDecide, with or without the defaults. */
  rules(rules: RulesOptions): AgentBuilder<TOutput> {
    return this.with({ rules }, 'rules');
  }

  /**
   * Validates the configuration and builds the agent.
   * @throws {AgentConfigurationError} naming the setting at fault.
   */
  build(): Agent<TOutput> {
    const { state } = this;
    const { options } = state;
    if (state.repeated.length > 0) fail(String(state.repeated[0]), 'was given twice; give it once');
    const targets = [{ provider: options.provider, model: options.model }, ...(options.fallbacks ?? [])];
    targets.forEach((target, index) => {
      const setting = index === 0 ? 'provider' : `fallbacks[${index - 1}]`;
      if (target.provider?.specificationVersion !== 'v1' || typeof target.provider.generate !== 'function') {
        fail(setting, 'must be a ModelProvider with specificationVersion "v1" and generate()');
      }
      if (typeof target.model !== 'string' || target.model.trim() === '') fail(index === 0 ? 'model' : `${setting}.model`, 'needs a model id');
    });
    if (!isWholeAtLeast(options.maxSteps, 1)) fail('maxSteps', `must be a whole number >= 1, got ${options.maxSteps}`);
    if (!isWholeAtLeast(options.toolRetries, 0)) fail('toolRetries', `must be a whole number >= 0, got ${options.toolRetries}`);
    if (!isWholeAtLeast(options.maxAttemptsPerStep, 1)) fail('maxAttemptsPerStep', `must be a whole number >= 1, got ${options.maxAttemptsPerStep}`);
    if (options.maxTokens !== undefined && !isWholeAtLeast(options.maxTokens, 1)) fail('maxTokens', `must be a whole number >= 1, got ${options.maxTokens}`);
    if (!isWholeAtLeast(options.maxRetryAfterMs, 0)) fail('maxRetryAfterMs', `must be a whole number >= 0, got ${options.maxRetryAfterMs}`);
    for (const [model, price] of Object.entries(options.pricing ?? {})) {
      for (const [field, value] of Object.entries(price ?? {})) {
        if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) fail(`pricing.${model}.${field}`, `must be a finite number >= 0, got ${String(value)}`);
      }
    }
    if (!isWholeAtLeast(options.toolTimeoutMs, 1)) fail('toolTimeoutMs', `must be a whole number >= 1, got ${options.toolTimeoutMs}`);
    if (!isWholeAtLeast(options.maxRawOutputChars, 64)) fail('maxRawOutputChars', `must be a whole number >= 64, got ${options.maxRawOutputChars}`);
    if (!isWholeAtLeast(options.maxToolResultBytes, 64)) fail('maxToolResultBytes', `must be a whole number >= 64, got ${options.maxToolResultBytes}`);
    if (options.temperature !== undefined && !(typeof options.temperature === 'number' && Number.isFinite(options.temperature) && options.temperature >= 0)) {
      fail('temperature', `must be a finite number >= 0, got ${String(options.temperature)}`);
    }

    const tools = new Map<string, AnyTool>();
    for (const tool of state.tools) {
      if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || typeof tool.execute !== 'function' || typeof tool.validator?.validate !== 'function') {
        fail(`tools[${state.tools.indexOf(tool)}]`, 'is not a tool: define it with tool({ name, description, input, execute })');
      }
      if (tools.has(tool.name)) fail(`tool:${tool.name}`, 'the tool name is used twice');
      tools.set(tool.name, tool);
    }
    for (const rule of state.rules?.preCheck ?? []) {
      if (rule.then !== 'continue' && rule.then !== 'fail-fast') fail(`rules.preCheck:${rule.kind}`, `a PreCheck rule may only continue or fail-fast, not ${rule.then}`);
    }

    let output: RunConfig['output'];
    if (state.outputSchema !== undefined) {
      const outputOptions = state.outputOptions ?? {};
      if (!isWholeAtLeast(outputOptions.maxAttempts, 1)) fail('outputSchema.maxAttempts', `must be a whole number >= 1, got ${outputOptions.maxAttempts}`);
      if (!isWholeAtLeast(outputOptions.maxFeedbackTokens, 1)) fail('outputSchema.maxFeedbackTokens', `must be a whole number >= 1, got ${outputOptions.maxFeedbackTokens}`);
      let validator;
      try {
        validator = toValidator(state.outputSchema);
      } catch (error) {
        fail('outputSchema', reduceError(error).message);
      }
      output = { validator: validator as NonNullable<typeof validator>, options: outputOptions };
    }
    if (output && state.rules?.defaults === false && (output.options.maxAttempts !== undefined || output.options.retryOn !== undefined)) {
      fail('rules.defaults', 'false turns the strict-output rules off, so outputSchema maxAttempts/retryOn would have no effect; drop one or the other');
    }
    if (state.outputFallback) {
      if (!output) fail('outputFallback', 'needs an outputSchema');
      const { canned, fallback } = state.outputFallback;
      if (canned === undefined && fallback === undefined) fail('outputFallback', 'give a fallback function, a canned value, or both');
      if (canned !== undefined) {
        const checked = output?.validator.validate(canned);
        if (checked instanceof Promise) fail('outputFallback.canned', 'the output schema validates asynchronously; a canned value needs a synchronous schema');
        else if (checked && !checked.ok) {
          fail('outputFallback.canned', `the canned value fails the output schema: ${checked.issues.map((issue) => issue.message).join('; ')}`);
        }
      }
    }

    const config: RunConfig = {
      targets,
      maxSteps: options.maxSteps ?? 10,
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.stop === undefined ? {} : { stop: options.stop }),
      ...(options.pricing === undefined ? {} : { pricing: options.pricing }),
      toolRetries: options.toolRetries ?? 2,
      maxAttemptsPerStep: options.maxAttemptsPerStep ?? 10,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
      maxToolResultBytes: options.maxToolResultBytes ?? DEFAULT_MAX_TOOL_RESULT_BYTES,
      maxRawOutputChars: options.maxRawOutputChars ?? 16_384,
      ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
      ...(state.system === undefined ? {} : { system: state.system }),
      tools,
      guards: state.guards,
      ...(state.memory === undefined ? {} : { memory: state.memory }),
      listeners: state.listeners,
      ...(output === undefined ? {} : { output }),
      ...(state.outputFallback === undefined ? {} : { outputFallback: state.outputFallback }),
      rules: state.rules ?? {},
      ...resolveRules(state.rules, output),
      toolSpecifications: [...tools.values()].map((tool) => tool.specification),
    };
    return state.construct(Object.freeze(config)) as Agent<TOutput>;
  }

  /** @internal Use `Agent.create()`. */
  static start(options: AgentOptions, construct: ConstructAgent): AgentBuilder<string> {
    return new AgentBuilder<string>({ options, construct, tools: [], guards: [], listeners: [], repeated: [] });
  }
}
