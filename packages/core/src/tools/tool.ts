import { type AnySchema, type InferSchema, type SchemaValidator, toValidator } from '@keel/reliability';
import { reduceError } from '@keel/reliability/internal';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { ToolSpecification } from '@keel/provider';
import type { ToolGuard } from './guard';
import type { ToolSource } from './tool-source';

/** What a tool's `execute` receives besides its input. */
export interface ToolContext {
  readonly runId: string;
  readonly step: number;
  readonly toolCallId: string;
  /** Aborted when the run is; long-running tools should honour it. */
  readonly signal: AbortSignal;
  /**
   * A key for this logical call, the same across re-asks, retries, recovery after a crash and
   * workers (made from the run id and the tool call id): pass it to the systems the tool writes
   * to (payment APIs take one) so a call made again is applied once.
   */
  readonly idempotencyKey: string;
}

/**
 * What running a tool call does to the world, which decides what a durable run does with a call
 * whose outcome a crash left unknown: `none` (reads only) and `idempotent` (applied once per
 * {@link ToolContext.idempotencyKey}) run again with the same key; `once` never runs again blindly:
 * the run suspends with the call as an unknown outcome for a person to settle.
 */
export type ToolEffect = 'none' | 'idempotent' | 'once';

const EFFECTS: readonly ToolEffect[] = ['none', 'idempotent', 'once'];

/** How to define a tool. */
export interface ToolDefinition<S extends AnySchema, TOutput> {
  /** 1–64 letters, digits, `_` or `-`. */
  readonly name: string;
  /** What the tool does and when to use it, for the model. */
  readonly description: string;
  /** Input schema: TypeBox, Standard Schema (Zod 4...) or `{ parse }`. */
  readonly input: S;
  /** Runs the tool with the validated input. Its return value is sent to the model (strings as is, others as JSON). */
  readonly execute: (input: InferSchema<S>, context: ToolContext) => TOutput | Promise<TOutput>;
  /** Re-asks allowed when the model's arguments fail validation; overrides the agent's `toolRetries`. */
  readonly retries?: number;
  /** `false` skips validation: `execute` receives the raw arguments. Default true. */
  readonly validate?: boolean;
  /**
   * Schema-guided coercion of arguments that fail validation only in a unique, lossless way
   * (`"2"` → 2, `"true"` → true, a single value → a one-item array, enum casing, `null` for an
   * optional property → absent): the tool runs with the coerced arguments, no re-ask. Default true.
   */
  readonly coerce?: boolean;
  /** Guards for this tool only, run after the agent's guards. */
  readonly guards?: readonly ToolGuard[];
  /**
   * Milliseconds a call may run before it ends with an error result coded `tool-timeout` (the
   * tool's signal aborts; the run goes on). Overrides the agent's `toolTimeoutMs`.
   */
  readonly timeoutMs?: number;
  /**
   * Whether a call needs a person's approval before it runs: `true`, or a function of the
   * validated input (checked by the guards too) deciding per call. When it does, the run
   * suspends instead of executing: the result has `status: 'suspended'`, the pending calls and a
   * JSON `state` that `agent.resume(state, { approve, reject })` continues (see docs/approvals.md).
   * A function that throws or rejects ends the call with an error result coded `approval-error`
   * (the tool does not run). Default: no approval.
   */
  readonly needsApproval?: boolean | ((input: InferSchema<S>, context: ToolContext) => boolean | Promise<boolean>);
  /**
   * Strict arguments: constrained by the provider's decoder to the input schema (lowered), where
   * the model supports strict tools. Overrides the agent's `strictTools`; Keel validates either way.
   */
  readonly strict?: boolean;
  /** What a call does to the world (see {@link ToolEffect}). Default `once`: never run again blindly. */
  readonly effect?: ToolEffect;
  /**
   * `true`: the tool is not sent to the model until `tool_search` finds it (or the model calls it
   * by name); `false`: always sent, even past the agent's `toolSearch.threshold`. See docs/tool-search.md.
   */
  readonly defer?: boolean;
}

/** A tool ready to give to an agent. */
export interface Tool<TInput = unknown, TOutput = unknown> {
  readonly name: string;
  readonly description: string;
  readonly validator: SchemaValidator<TInput>;
  /** What providers see. */
  readonly specification: ToolSpecification;
  /** Runs the tool (method syntax, so tools of any input type fit {@link AnyTool}). */
  execute(input: TInput, context: ToolContext): TOutput | Promise<TOutput>;
  readonly retries?: number;
  readonly validate: boolean;
  /** Apply schema-guided coercion to arguments before re-asking. */
  readonly coerce: boolean;
  readonly guards: readonly ToolGuard[];
  /** Milliseconds a call may run before it ends with `tool-timeout`. */
  readonly timeoutMs?: number;
  /** Strict arguments where supported (overrides the agent's `strictTools`). */
  readonly strict?: boolean;
  /** What a call does to the world: see {@link ToolEffect}. */
  readonly effect: ToolEffect;
  /** Whether the tool waits for tool search (`true`) or is always sent (`false`); see {@link ToolDefinition.defer}. */
  readonly defer?: boolean;
  /**
   * Present when calls may need approval: whether this call does (method syntax, so tools of any
   * input type fit {@link AnyTool}). See {@link ToolDefinition.needsApproval}.
   */
  needsApproval?(input: TInput, context: ToolContext): boolean | Promise<boolean>;
  /**
   * Set by integrations whose tools come from a place with events of its own (`@keel/mcp`): the
   * runs holding the tool report that place's events (`mcp.*`) on their agent's bus.
   */
  readonly source?: ToolSource;
}

/** Any tool, whatever its input and output types. */
export type AnyTool = Tool<unknown, unknown>;

const always = (): boolean => true;

const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool. The input type is inferred from the schema, and the schema is compiled once
 * here. Throws {@link AgentConfigurationError} naming the tool for a bad name, retry budget or
 * timeout, a missing `execute`, or an input schema that is not one Keel accepts.
 */
export function tool<S extends AnySchema, TOutput>(definition: ToolDefinition<S, TOutput>): Tool<InferSchema<S>, TOutput> {
  const setting = `tool:${typeof definition.name === 'string' ? JSON.stringify(definition.name).slice(1, -1) : String(definition.name)}`;
  if (typeof definition.name !== 'string' || !namePattern.test(definition.name)) {
    throw new AgentConfigurationError({ setting, message: 'a tool name must be 1-64 letters, digits, "_" or "-"' });
  }
  if (definition.retries !== undefined && (!Number.isInteger(definition.retries) || definition.retries < 0)) {
    throw new AgentConfigurationError({ setting, message: `retries must be a whole number >= 0, got ${definition.retries}` });
  }
  if (typeof definition.execute !== 'function') {
    throw new AgentConfigurationError({ setting, message: 'a tool needs an execute function' });
  }
  if (typeof definition.description !== 'string') {
    throw new AgentConfigurationError({ setting, message: 'a tool needs a description (a string)' });
  }
  if (definition.strict !== undefined && typeof definition.strict !== 'boolean') {
    throw new AgentConfigurationError({ setting, message: `strict must be true or false, got ${String(definition.strict)}` });
  }
  if (definition.timeoutMs !== undefined && !(Number.isInteger(definition.timeoutMs) && definition.timeoutMs >= 1)) {
    throw new AgentConfigurationError({ setting, message: `timeoutMs must be a whole number >= 1, got ${definition.timeoutMs}` });
  }
  if (definition.defer !== undefined && typeof definition.defer !== 'boolean') {
    throw new AgentConfigurationError({ setting: `${setting}.defer`, message: `defer must be true or false, got ${String(definition.defer)}` });
  }
  if (definition.effect !== undefined && !EFFECTS.includes(definition.effect)) {
    throw new AgentConfigurationError({ setting: `${setting}.effect`, message: `effect must be 'none', 'idempotent' or 'once', got ${JSON.stringify(definition.effect) ?? String(definition.effect)}` });
  }
  const needsApproval = definition.needsApproval;
  if (needsApproval !== undefined && typeof needsApproval !== 'boolean' && typeof needsApproval !== 'function') {
    throw new AgentConfigurationError({ setting: `${setting}.needsApproval`, message: 'needsApproval must be true, false or a function (input, context) => boolean' });
  }
  let validator: SchemaValidator<InferSchema<S>>;
  try {
    validator = toValidator(definition.input);
  } catch (error) {
    throw new AgentConfigurationError({ setting: `${setting}.input`, message: reduceError(error).message, cause: error });
  }
  return Object.freeze({
    name: definition.name,
    description: definition.description,
    validator,
    specification: Object.freeze({ name: definition.name, description: definition.description, inputSchema: validator.jsonSchema }),
    execute: definition.execute,
    ...(definition.retries === undefined ? {} : { retries: definition.retries }),
    ...(definition.timeoutMs === undefined ? {} : { timeoutMs: definition.timeoutMs }),
    ...(definition.strict === undefined ? {} : { strict: definition.strict }),
    effect: definition.effect ?? 'once',
    ...(definition.defer === undefined ? {} : { defer: definition.defer }),
    validate: definition.validate ?? true,
    coerce: definition.coerce ?? true,
    guards: definition.guards ?? [],
    ...(needsApproval === true ? { needsApproval: always } : typeof needsApproval === 'function' ? { needsApproval } : {}),
  });
}
