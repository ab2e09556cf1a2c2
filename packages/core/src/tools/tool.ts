import { type AnySchema, type InferSchema, type SchemaValidator, toValidator } from '@keel/reliability';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { ToolSpecification } from '../model/model-provider-v1';
import type { ToolGuard } from './guard';

/** What a tool's `execute` receives besides its input. */
export interface ToolContext {
  readonly runId: string;
  readonly step: number;
  readonly toolCallId: string;
  /** Aborted when the run is; long-running tools should honour it. */
  readonly signal: AbortSignal;
}

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
  /** Guards for this tool only, run after the agent's guards. */
  readonly guards?: readonly ToolGuard[];
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
  readonly guards: readonly ToolGuard[];
}

/** Any tool, whatever its input and output types. */
export type AnyTool = Tool<unknown, unknown>;

const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool. The input type is inferred from the schema, and the schema is compiled once
 * here. Throws {@link AgentConfigurationError} for a bad name or retry budget.
 */
export function tool<S extends AnySchema, TOutput>(definition: ToolDefinition<S, TOutput>): Tool<InferSchema<S>, TOutput> {
  const setting = `tool:${definition.name}`;
  if (!namePattern.test(definition.name)) {
    throw new AgentConfigurationError({ setting, message: 'a tool name must be 1-64 letters, digits, "_" or "-"' });
  }
  if (definition.retries !== undefined && (!Number.isInteger(definition.retries) || definition.retries < 0)) {
    throw new AgentConfigurationError({ setting, message: `retries must be a whole number >= 0, got ${definition.retries}` });
  }
  const validator = toValidator(definition.input);
  return Object.freeze({
    name: definition.name,
    description: definition.description,
    validator,
    specification: Object.freeze({ name: definition.name, description: definition.description, inputSchema: validator.jsonSchema }),
    execute: definition.execute,
    ...(definition.retries === undefined ? {} : { retries: definition.retries }),
    validate: definition.validate ?? true,
    guards: definition.guards ?? [],
  });
}
