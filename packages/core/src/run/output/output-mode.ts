import type { ModelTarget } from '../../contracts/agent-options';
import type { ModelCapabilities, ResponseFormat, SchemaRejection, ToolSpecification } from '@keel/provider';

/**
 * How the final answer is asked for: `native` (the provider's constrained decoding, a strict
 * response format), `tool` (a forced call of an answer tool whose input schema is the output
 * schema), `prompt` (the schema in the prompt only). The order is the downgrade order.
 */
export type OutputMode = 'native' | 'tool' | 'prompt';

/** What `.outputSchema(schema, { mode })` takes: a mode, or `auto` (native where the provider declares it, else prompt). */
export type OutputModeOption = 'auto' | OutputMode;

/** What `Agent.create({ strictTools })` and `tool({ strict })` take. */
export type StrictToolsOption = 'auto' | boolean;

/** The answer tool of `tool` mode. A user tool of this name is refused at build when an output schema is set. */
export const ANSWER_TOOL_NAME = 'final_answer';

const ANSWER_TOOL_DESCRIPTION =
  'Give your final answer. Call this tool once, when you are done (after any other tool calls), with the complete answer as its input. Its input is validated against the required schema.';

/** Why a mode was left: a 400 that refused a schema, a schema that cannot be lowered, or a target that lacks the capability. */
export type DowngradeReason = 'schema-rejected' | 'not-lowerable' | 'unsupported';

/** A target's level: the output mode it uses now and whether its tools may be strict. Only ever goes down. */
export interface ModeLevel {
  readonly mode: OutputMode;
  readonly strictTools: boolean;
}

/** One change of level, reported as `output.mode-downgraded`. */
export interface Downgrade {
  readonly from: OutputMode;
  readonly to: OutputMode;
  /** Whether the target's tools may still be strict after the change. */
  readonly strictTools: boolean;
  readonly reason: DowngradeReason;
  /** What happened, for people: the provider's message or the lowering's verdict. */
  readonly detail: string;
}

/** The output schema and the settings that shape a target's requests. */
export interface OutputShape {
  /** The full JSON Schema of the final answer (Keel validates against it, whatever is sent). */
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  readonly mode: OutputModeOption;
}

/** A tool as configured: its full specification and its own `strict`, when given. */
export interface ToolShape {
  readonly specification: ToolSpecification;
  readonly strict?: boolean;
}

/** What one target's requests carry at one level: computed once per level, pure. */
export interface TargetPlan {
  readonly level: ModeLevel;
  /** The strict response format of `native` mode (lowered schema). */
  readonly responseFormat?: ResponseFormat;
  /** The tools sent: the user's (strict ones lowered), then the answer tool in `tool` mode. */
  readonly tools: readonly ToolSpecification[];
  /** The answer tool's name in `tool` mode. */
  readonly answerTool?: string;
  /** What lowering changed in the output schema (native format or answer tool), one line each. */
  readonly outputChanges: readonly string[];
  /** What lowering changed in strict user tools' schemas, by tool name (only tools with changes). */
  readonly toolChanges: readonly { readonly tool: string; readonly changes: readonly string[] }[];
}

const isObjectRoot = (schema: Readonly<Record<string, unknown>>) => schema['type'] === 'object';

/** A provider's capabilities for a model; a hook that throws or answers garbage declares nothing. */
export function capabilitiesOf(target: ModelTarget): ModelCapabilities {
  try {
    const declared: unknown = target.provider.capabilities?.(target.model);
    if (typeof declared !== 'object' || declared === null) return {};
    const { nativeOutput, strictTools } = declared as ModelCapabilities;
    return { ...(nativeOutput === true ? { nativeOutput: true } : {}), ...(strictTools === true ? { strictTools: true } : {}) };
  } catch {
    return {};
  }
}

/** The lowered schema, or `undefined` when it cannot be lowered (or the hook throws); the schema as it is without a hook. */
export function lowerFor(target: ModelTarget, schema: Readonly<Record<string, unknown>>, purpose: 'output' | 'tool'): { readonly schema: Readonly<Record<string, unknown>>; readonly changes: readonly string[] } | undefined {
  const lower = target.provider.lowerSchema;
  if (typeof lower !== 'function') return { schema, changes: [] };
  try {
    const lowered: unknown = lower.call(target.provider, schema, purpose);
    if (typeof lowered !== 'object' || lowered === null) return undefined;
    const { schema: sent, changes } = lowered as { schema?: unknown; changes?: unknown };
    if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return undefined;
    return { schema: sent as Readonly<Record<string, unknown>>, changes: Array.isArray(changes) ? changes.filter((line): line is string => typeof line === 'string') : [] };
  } catch {
    return undefined;
  }
}

/** Whether a tool is strict on a target: its own `strict`, else the agent's `strictTools`, within what the target supports and its level allows. */
function wantsStrict(tool: ToolShape, option: StrictToolsOption, capabilities: ModelCapabilities, level: ModeLevel): boolean {
  if (!level.strictTools || capabilities.strictTools !== true) return false;
  return tool.strict ?? option !== false;
}

/**
 * The level a target starts at: the configured mode where the target can carry it (`auto` is
 * native where the provider declares native output, else prompt), and strict tools where the
 * provider declares them (each tool and the agent's `strictTools` then choose). The downgrades taken to get there (a target
 * without native output, a schema that cannot be lowered, an output schema that is not an object
 * for the answer tool) are returned to be reported.
 */
export function startLevel(target: ModelTarget, output: OutputShape | undefined): { readonly level: ModeLevel; readonly downgrades: readonly Downgrade[] } {
  const capabilities = capabilitiesOf(target);
  // Whether strict tools may be sent at all; which tools are strict is each tool's and the agent's choice.
  const strict = capabilities.strictTools === true;
  if (output === undefined) return { level: { mode: 'prompt', strictTools: strict }, downgrades: [] };
  const downgrades: Downgrade[] = [];
  let mode: OutputMode = output.mode === 'auto' ? (capabilities.nativeOutput === true ? 'native' : 'prompt') : output.mode;
  const leave = (to: OutputMode, reason: DowngradeReason, detail: string) => {
    downgrades.push({ from: mode, to, strictTools: strict, reason, detail });
    mode = to;
  };
  if (mode === 'native' && capabilities.nativeOutput !== true) leave('tool', 'unsupported', `${target.provider.name} does not declare native output for ${target.model}`);
  if (mode === 'native' && lowerFor(target, output.jsonSchema, 'output') === undefined) leave('tool', 'not-lowerable', `${target.provider.name} cannot lower the output schema for its decoder`);
  if (mode === 'tool' && !isObjectRoot(output.jsonSchema)) leave('prompt', 'not-lowerable', 'the output schema is not an object, so it cannot be a tool input');
  return { level: { mode, strictTools: strict }, downgrades };
}

/**
 * The level after a provider's 400 refused a schema the request sent at `used`: `output` leaves
 * the output mode for the next one, `tool` turns strict tools off (the answer tool included),
 * `both` does both. `undefined` when nothing can go down (then the 400 is a plain bad request).
 */
export function levelAfterRejection(used: ModeLevel, rejected: SchemaRejection, output: OutputShape | undefined): ModeLevel | undefined {
  const outputRejected = rejected !== 'tool' && used.mode === 'native';
  // An answer tool is a tool: a strict one refused under `output` goes down like a tool.
  const toolRejected = rejected !== 'output' || (used.mode === 'tool' && used.strictTools);
  let mode = used.mode;
  if (outputRejected) mode = output !== undefined && isObjectRoot(output.jsonSchema) ? 'tool' : 'prompt';
  const strictTools = toolRejected ? false : used.strictTools;
  if (mode === used.mode && strictTools === used.strictTools) return undefined;
  return { mode, strictTools };
}

/** The lower of two levels: a mode further down the order, strict tools off if either has them off. */
export function lowerLevel(a: ModeLevel, b: ModeLevel): ModeLevel {
  const order: readonly OutputMode[] = ['native', 'tool', 'prompt'];
  const mode = order.indexOf(a.mode) >= order.indexOf(b.mode) ? a.mode : b.mode;
  return { mode, strictTools: a.strictTools && b.strictTools };
}

/**
 * What a target's requests carry at a level: the native response format (lowered), the tools
 * (strict ones lowered; a tool whose schema cannot be lowered is sent without `strict`), and the
 * answer tool in `tool` mode (strict and lowered when tools may be strict and it lowers).
 */
export function planFor(target: ModelTarget, output: OutputShape | undefined, tools: readonly ToolShape[], strictTools: StrictToolsOption, level: ModeLevel): TargetPlan {
  const capabilities = capabilitiesOf(target);
  const toolChanges: { tool: string; changes: readonly string[] }[] = [];
  const specifications = tools.map(({ specification, strict }) => {
    if (!wantsStrict({ specification, ...(strict === undefined ? {} : { strict }) }, strictTools, capabilities, level)) return specification;
    const lowered = lowerFor(target, specification.inputSchema, 'tool');
    if (lowered === undefined) return specification;
    if (lowered.changes.length > 0) toolChanges.push({ tool: specification.name, changes: lowered.changes });
    return Object.freeze({ ...specification, inputSchema: lowered.schema, strict: true });
  });
  if (output === undefined || level.mode === 'prompt') return { level, tools: specifications, outputChanges: [], toolChanges };
  if (level.mode === 'native') {
    // startLevel never plans native for a schema that does not lower.
    const lowered = lowerFor(target, output.jsonSchema, 'output') ?? { schema: output.jsonSchema, changes: [] };
    return { level, responseFormat: Object.freeze({ type: 'json', name: 'output', schema: lowered.schema, strict: true }), tools: specifications, outputChanges: lowered.changes, toolChanges };
  }
  const strictAnswer = level.strictTools && capabilities.strictTools === true && strictTools !== false;
  const lowered = strictAnswer ? lowerFor(target, output.jsonSchema, 'tool') : undefined;
  const answer: ToolSpecification = Object.freeze({
    name: ANSWER_TOOL_NAME,
    description: ANSWER_TOOL_DESCRIPTION,
    inputSchema: lowered?.schema ?? output.jsonSchema,
    ...(lowered === undefined ? {} : { strict: true }),
  });
  return { level, tools: [...specifications, answer], answerTool: ANSWER_TOOL_NAME, outputChanges: lowered?.changes ?? [], toolChanges };
}
