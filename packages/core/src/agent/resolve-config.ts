import type { RunRecordListener } from '../contracts/recorded-run';
import { type AnySchema, defaultRules, type PricingTable, strictOutputRules, toValidator } from '@keel/reliability';
import { GATE_DEFAULTS, hasActionLoopRules, reduceError, ruleProblem, STRICT_OUTPUT_DEFAULTS } from '@keel/reliability/internal';
import { AGENT_DEFAULTS } from '../defaults';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { ListenerEntry } from '../events/event-bus';
import type { MemoryStore } from '../memory/memory-store';
import type { RunStore } from '../contracts/run-store';
import type { JournalListener } from '../run/journal/journal-writer';
import type { ModelProvider, ModelResponse } from '@keel/provider';
import { patchOptionsProblem } from '../run/attempt/patch-and-continue';
import type { RunConfig } from '../run/state/run-config';
import type { ToolGuard } from '../tools/guard';
import type { AnyTool } from '../tools/tool';
import type { AgentOptions, OutputFallbackOptions, OutputOptions, ReliabilityOptions } from '../contracts/agent-options';
import { type CallWrapper, composeWrappers } from '../shared/call-wrapper';
import { OutputModeCache } from '../run/output/output-mode-cache';
import { ANSWER_TOOL_NAME, capabilitiesOf, type OutputShape, type StrictToolsOption } from '../run/output/output-mode';
import { toolShapeProblem } from '../tools/tool-shape';
import { type ContextOptions, resolveContext } from '../context/context-options';
import { resolveToolSearch } from '../tools/search/tool-search';

/** What the builder has collected: the user's settings, unvalidated. */
export interface BuilderSettings {
  readonly options: AgentOptions;
  readonly system?: string;
  readonly tools: readonly AnyTool[];
  readonly guards: readonly ToolGuard[];
  readonly memory?: MemoryStore;
  readonly context?: ContextOptions | false;
  readonly store?: RunStore;
  readonly listeners: readonly ListenerEntry[];
  readonly recorders: readonly RunRecordListener[];
  readonly journalListeners: readonly JournalListener[];
  readonly callWrappers: readonly CallWrapper[];
  readonly outputSchema?: AnySchema;
  readonly outputOptions?: OutputOptions;
  readonly outputFallback?: OutputFallbackOptions<unknown>;
  readonly reliability?: ReliabilityOptions;
  /** Single-valued settings given more than once. */
  readonly repeated: readonly string[];
}

const fail = (setting: string, message: string): never => {
  throw new AgentConfigurationError({ setting, message });
};

/** Unset, or a whole (hence finite) number of at least `min`. */
const isWholeAtLeast = (value: number | undefined, min: number) => value === undefined || (Number.isInteger(value) && value >= min);

/** Option names of earlier versions, refused with their new name (plain JavaScript gets no type error). */
const RENAMED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '': { fallbacks: 'failover', maxAttemptsPerStep: 'maxAttempts' },
  'outputSchema.': {
    maxAttempts: 'maxRetries (feedback retries: maxAttempts - 1)',
    feedbackTemplate: 'feedbackForLLM',
    nativeStructuredOutput: "mode: 'native' (the default mode 'auto' uses native output where the provider declares it)",
  },
};

function refuseRenamed(prefix: keyof typeof RENAMED, options: object | undefined): void {
  for (const [old, current] of Object.entries(RENAMED[prefix] ?? {})) {
    if (options && old in options) fail(`${prefix}${old}`, `was renamed to ${current}`);
  }
}

/**
 * The PostDecide rules of step calls and of tool-argument re-asks, resolved once: the user's
 * first, then unless `defaults` is false the strict-output rules (steps; adding e.g. a failover
 * rule keeps feedback retries) and the default rules: transient retries, and the default loop
 * rules unless the user listed loop rules of their own (one loop rule set per agent).
 */
function resolveRules(reliability: ReliabilityOptions | undefined, output: RunConfig['output']): Pick<RunConfig, 'stepRules' | 'reAskRules'> {
  const user = reliability?.postDecide ?? [];
  if (reliability?.defaults === false) return { stepRules: user, reAskRules: { before: user, after: [] } };
  const defaults = defaultRules<ModelResponse>({ actionLoops: !hasActionLoopRules(user) });
  // With `strict: false` schema issues never fail a step, but a reply that does not parse still
  // retries. Without an output schema these rules bound a rule's rejection of a valid answer.
  const strict = strictOutputRules<ModelResponse>({ maxRetries: output?.options.maxRetries ?? STRICT_OUTPUT_DEFAULTS.maxRetries, ...(output?.options.retryOn ? { retryOn: output.options.retryOn } : {}) });
  return { stepRules: [...user, ...strict, ...defaults], reAskRules: { before: user, after: defaults } };
}

function resolveOutput(settings: BuilderSettings): RunConfig['output'] {
  if (settings.outputSchema === undefined) return undefined;
  const options = settings.outputOptions ?? {};
  refuseRenamed('outputSchema.', options);
  if (!isWholeAtLeast(options.maxRetries, 0)) fail('outputSchema.maxRetries', `must be a whole number >= 0, got ${options.maxRetries}`);
  if (!isWholeAtLeast(options.maxFeedbackTokens, 1)) fail('outputSchema.maxFeedbackTokens', `must be a whole number >= 1, got ${options.maxFeedbackTokens}`);
  const patchProblem = patchOptionsProblem(options);
  if (patchProblem) fail(...patchProblem);
  if (options.mode !== undefined && !OUTPUT_MODES.includes(options.mode)) fail('outputSchema.mode', `must be one of ${OUTPUT_MODES.map((mode) => `'${mode}'`).join(', ')}, got ${String(options.mode)}`);
  try {
    return { validator: toValidator(settings.outputSchema), options };
  } catch (error) {
    return fail('outputSchema', reduceError(error).message);
  }
}

const OUTPUT_MODES: readonly unknown[] = ['auto', 'native', 'tool', 'prompt'];

/**
 * Output modes and strict tools that contradict the primary model: `native` where it declares no
 * native output, `tool` for a schema that is not an object, strict tools it does not support, and
 * a tool named like the answer tool.
 */
function checkOutputModes(settings: BuilderSettings, output: RunConfig['output'], tools: ReadonlyMap<string, AnyTool>): StrictToolsOption {
  const { options } = settings;
  const strictTools: unknown = options.strictTools ?? 'auto';
  if (strictTools !== 'auto' && typeof strictTools !== 'boolean') fail('strictTools', `must be 'auto', true or false, got ${String(strictTools)}`);
  const primary = { provider: options.provider, model: options.model };
  const capabilities = capabilitiesOf(primary);
  const unsupported = `${options.provider.name} does not declare strict tools for ${options.model} (its capabilities(model).strictTools)`;
  if (strictTools === true && capabilities.strictTools !== true) fail('strictTools', `is true, but ${unsupported}; use 'auto'`);
  for (const tool of tools.values()) {
    if (tool.strict === true && strictTools !== false && capabilities.strictTools !== true) fail(`tool:${tool.name}.strict`, `is true, but ${unsupported}`);
  }
  if (!output) return strictTools as StrictToolsOption;
  if (tools.has(ANSWER_TOOL_NAME)) fail(`tool:${ANSWER_TOOL_NAME}`, `is the name of the answer tool of output mode 'tool'; with an output schema, name your tool otherwise`);
  const mode = output.options.mode ?? 'auto';
  if (mode === 'native' && capabilities.nativeOutput !== true) {
    fail('outputSchema.mode', `is 'native', but ${options.provider.name} does not declare native output for ${options.model} (its capabilities(model).nativeOutput); use 'auto', 'tool' or 'prompt', or declare it on the provider`);
  }
  if (mode === 'tool' && output.validator.jsonSchema['type'] !== 'object') fail('outputSchema.mode', `is 'tool', but the output schema is not an object schema, so it cannot be a tool's input`);
  return strictTools as StrictToolsOption;
}

function checkOutputFallback(fallbackOptions: OutputFallbackOptions<unknown>, output: RunConfig['output']): void {
  if (!output) fail('outputFallback', 'needs an outputSchema');
  const { canned, fallback } = fallbackOptions;
  if (canned === undefined && fallback === undefined) fail('outputFallback', 'give a fallback function, a canned value, or both');
  if (canned === undefined) return;
  const checked = output?.validator.validate(canned);
  if (checked instanceof Promise) fail('outputFallback.canned', 'the output schema validates asynchronously; a canned value needs a synchronous schema');
  else if (checked && !checked.ok) fail('outputFallback.canned', `the canned value fails the output schema: ${checked.issues.map((issue) => issue.message).join('; ')}`);
}

/** What a redaction that failed leaves: nothing of the text, since it may hold the secret. */
const UNREDACTABLE = '[text withheld: the provider could not redact it]';

/**
 * One function applying every provider's `redact` in turn. A `redact` that throws or returns
 * something other than a string withholds the text: a secret is never let through by a broken hook.
 */
function redactorOf(providers: readonly ModelProvider[]): (text: string) => string {
  const hooks = providers.flatMap((provider) => (typeof provider.redact === 'function' ? [provider] : []));
  if (hooks.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const provider of hooks) {
      try {
        const next: unknown = provider.redact?.(out);
        if (typeof next !== 'string') return UNREDACTABLE;
        out = next;
      } catch {
        return UNREDACTABLE;
      }
    }
    return out;
  };
}

/** What the provider says is wrong with the model id (its optional `checkModel`); a hook that throws says so too. */
function modelProblem(provider: ModelProvider, model: string): string | undefined {
  if (typeof provider.checkModel !== 'function') return undefined;
  try {
    const problem: unknown = provider.checkModel(model);
    return typeof problem === 'string' && problem !== '' ? problem : undefined;
  } catch (error) {
    return `${provider.name} could not check it: ${reduceError(error).message}`;
  }
}

/**
 * Checks a pricing table: every price a finite number >= 0, and a price for every model the agent
 * calls (its model, each failover model, and the model that summarizes at compaction). A model missing from a table the agent was given
 * would cost $0 to `costBudget` and in `result.usage`: a silent zero, so it is refused; a model
 * that is free gets a price of 0.
 */
function checkPricing(pricing: PricingTable, targets: readonly { readonly model: string }[], context: ContextOptions | false | undefined): void {
  for (const [model, price] of Object.entries(pricing)) {
    for (const [field, value] of Object.entries(price ?? {})) {
      if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) fail(`pricing.${model}.${field}`, `must be a finite number >= 0, got ${String(value)}`);
    }
  }
  const summarize: unknown = context === false ? undefined : context?.summarize;
  const summary = typeof summarize === 'object' && summarize !== null && typeof (summarize as { model?: unknown }).model === 'string' ? [(summarize as { model: string }).model] : [];
  const unpriced = [...targets.map((target) => target.model), ...summary].find((model) => !Object.hasOwn(pricing, model));
  if (unpriced !== undefined) fail('pricing', `has no price for model "${unpriced}": its calls would cost $0 to costBudget and in the usage; add it (a free model with inputPerMTok and outputPerMTok 0)`);
}

/**
 * Validates the builder's settings as a whole and resolves them into the frozen configuration
 * runs execute.
 * @throws {AgentConfigurationError} naming the setting at fault.
 */
export function resolveConfig(settings: BuilderSettings): RunConfig {
  const { options } = settings;
  if (settings.repeated.length > 0) fail(String(settings.repeated[0]), 'was given twice; give it once');
  refuseRenamed('', options);
  const targets = [{ provider: options.provider, model: options.model }, ...(options.failover ?? [])];
  targets.forEach((target, index) => {
    const setting = index === 0 ? 'provider' : `failover[${index - 1}]`;
    if (target.provider?.specificationVersion !== 'v1' || typeof target.provider.generate !== 'function') {
      fail(setting, 'must be a ModelProvider with specificationVersion "v1" and generate()');
    }
    if (typeof target.model !== 'string' || target.model.trim() === '') fail(index === 0 ? 'model' : `${setting}.model`, 'needs a model id');
    const problem = modelProblem(target.provider, target.model);
    if (problem !== undefined) fail(index === 0 ? 'model' : `${setting}.model`, problem);
  });
  if (!isWholeAtLeast(options.maxSteps, 1)) fail('maxSteps', `must be a whole number >= 1, got ${options.maxSteps}`);
  if (!isWholeAtLeast(options.maxDepth, 0)) fail('maxDepth', `must be a whole number >= 0, got ${options.maxDepth}`);
  if (!isWholeAtLeast(options.toolRetries, 0)) fail('toolRetries', `must be a whole number >= 0, got ${options.toolRetries}`);
  if (!isWholeAtLeast(options.maxAttempts, 1)) fail('maxAttempts', `must be a whole number >= 1, got ${options.maxAttempts}`);
  if (options.maxTokens !== undefined && !isWholeAtLeast(options.maxTokens, 1)) fail('maxTokens', `must be a whole number >= 1, got ${options.maxTokens}`);
  if (!isWholeAtLeast(options.maxRetryAfterMs, 0)) fail('maxRetryAfterMs', `must be a whole number >= 0, got ${options.maxRetryAfterMs}`);
  if (options.pricing !== undefined) checkPricing(options.pricing, targets, settings.context);
  if (!isWholeAtLeast(options.toolTimeoutMs, 1)) fail('toolTimeoutMs', `must be a whole number >= 1, got ${options.toolTimeoutMs}`);
  if (!isWholeAtLeast(options.maxRawOutputChars, 64)) fail('maxRawOutputChars', `must be a whole number >= 64, got ${options.maxRawOutputChars}`);
  if (!isWholeAtLeast(options.maxToolResultBytes, 64)) fail('maxToolResultBytes', `must be a whole number >= 64, got ${options.maxToolResultBytes}`);
  if (options.temperature !== undefined && !(typeof options.temperature === 'number' && Number.isFinite(options.temperature) && options.temperature >= 0)) {
    fail('temperature', `must be a finite number >= 0, got ${String(options.temperature)}`);
  }

  settings.callWrappers.forEach((wrapper, index) => {
    if (typeof wrapper !== 'function') fail(`wrapCalls[${index}]`, 'a call wrapper must be a function (call, proceed) => proceed()');
  });
  const tools = new Map<string, AnyTool>();
  for (const tool of settings.tools) {
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || typeof tool.execute !== 'function' || typeof tool.validator?.validate !== 'function') {
      fail(`tools[${settings.tools.indexOf(tool)}]`, 'is not a tool: define it with tool({ name, description, input, execute })');
    }
    const problem = toolShapeProblem(tool);
    if (problem !== undefined) fail(`tool:${tool.name}`, problem);
    if (tools.has(tool.name)) fail(`tool:${tool.name}`, 'the tool name is used twice');
    tools.set(tool.name, tool);
  }
  const search = resolveToolSearch(tools, options.toolSearch);
  if (search.problem) fail(...search.problem);
  if (search.searchTool) tools.set(search.searchTool.name, search.searchTool);
  const reliability = settings.reliability ?? {};
  for (const [list, phase] of [[reliability.preCheck ?? [], 'pre-check'], [reliability.postDecide ?? [], 'post-decide']] as const) {
    const setting = phase === 'pre-check' ? 'reliability.preCheck' : 'reliability.postDecide';
    list.forEach((rule: unknown, index) => {
      const problem = ruleProblem(rule, phase);
      const kind = typeof rule === 'object' && rule !== null ? (rule as { kind?: unknown }).kind : undefined;
      if (problem) fail(`${setting}:${typeof kind === 'string' ? kind : index}`, problem);
    });
  }
  const output = resolveOutput(settings);
  if (output && reliability.defaults === false && (output.options.maxRetries !== undefined || output.options.retryOn !== undefined)) {
    fail('reliability.defaults', 'false turns the strict-output rules off, so outputSchema maxRetries/retryOn would have no effect; drop one or the other');
  }
  if (settings.outputFallback) checkOutputFallback(settings.outputFallback, output);
  const strictTools = checkOutputModes(settings, output, tools);
  const outputShape: OutputShape | undefined = output ? { jsonSchema: output.validator.jsonSchema, mode: output.options.mode ?? 'auto' } : undefined;
  const context = resolveContext(settings.context, targets, reliability.defaults !== false);
  if ('problem' in context) fail(...context.problem);
  const contextConfig = 'config' in context ? context.config : undefined;
  const toolShapes = [...tools.values()].map((tool) => (tool.strict === undefined ? { specification: tool.specification } : { specification: tool.specification, strict: tool.strict }));
  return Object.freeze({
    targets,
    maxSteps: options.maxSteps ?? AGENT_DEFAULTS.maxSteps,
    maxDepth: options.maxDepth ?? AGENT_DEFAULTS.maxDepth,
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.stop === undefined ? {} : { stop: options.stop }),
    ...(options.pricing === undefined ? {} : { pricing: options.pricing }),
    toolRetries: options.toolRetries ?? AGENT_DEFAULTS.toolRetries,
    maxAttempts: options.maxAttempts ?? GATE_DEFAULTS.maxAttempts,
    maxRetryAfterMs: options.maxRetryAfterMs ?? GATE_DEFAULTS.maxRetryAfterMs,
    maxToolResultBytes: options.maxToolResultBytes ?? AGENT_DEFAULTS.maxToolResultBytes,
    maxRawOutputChars: options.maxRawOutputChars ?? GATE_DEFAULTS.maxRawOutputChars,
    ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
    ...(settings.system === undefined ? {} : { system: settings.system }),
    tools,
    toolSources: [...new Set(settings.tools.flatMap((tool) => (tool.source === undefined ? [] : [tool.source])))],
    guards: settings.guards,
    ...(settings.memory === undefined ? {} : { memory: settings.memory }),
    ...(contextConfig === undefined ? {} : { context: contextConfig }),
    ...(settings.store === undefined ? {} : { store: checkRunStore(settings.store, settings.options.stateKey !== undefined) }),
    listeners: settings.listeners,
    recorders: settings.recorders,
    journalListeners: settings.journalListeners,
    recordedTargets: Object.freeze(targets.map((target) => Object.freeze({ provider: target.provider.name, model: target.model }))),
    wrapCall: composeWrappers(settings.callWrappers),
    ...(output === undefined ? {} : { output }),
    ...(settings.outputFallback === undefined ? {} : { outputFallback: settings.outputFallback }),
    preCheck: reliability.preCheck ?? [],
    ...resolveRules(reliability, output),
    toolSpecifications: [...tools.values()].map((tool) => tool.specification),
    ...(search.config === undefined ? {} : { toolSearch: search.config }),
    redact: redactorOf(targets.map((target) => target.provider)),
    outputModes: new OutputModeCache(targets, outputShape, toolShapes, strictTools),
  });
}

/** A run store with every method a durable run calls. */
function checkRunStore(store: RunStore, keyed: boolean): RunStore {
  for (const method of ['acquire', 'acquireAt', 'append', 'load', 'claim', 'release'] as const) {
    if (typeof (store as Partial<RunStore> | null)?.[method] !== 'function') fail('durable', `the run store has no ${method}() method (give memoryRunStore() or redisRunStore())`);
  }
  // Every process checks the journals the others wrote (a recovery, a resume): they must share a key.
  if (store.shared !== false && !keyed) {
    fail('durable', 'a run store other processes share needs the agent\'s stateKey (Agent.create({ ..., stateKey })), the same in every process: without one, each process signs journals and states with a key of its own, so none can recover or resume what another wrote');
  }
  return store;
}
