import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { RunConfig } from '../run/state/run-config';
import type { AgentOptions } from '../contracts/agent-options';

/** How long a suspended state may be resumed by default: 7 days. */
export const DEFAULT_STATE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** What names an agent in its states, and how long they live. */
export interface AgentIdentity {
  /** The declared id, when one was given. */
  readonly id: string | undefined;
  /** What a derived id is a digest of: the tools and the output schema. */
  readonly description: unknown;
  readonly stateTtlMs: number;
}

/** Ids told apart by identity: output validators without a JSON Schema, one random token each, in this process. */
const tokens = new WeakMap<object, string>();

/** True for an output schema with no JSON Schema of its own (`{ parse }`, Zod 3): every such schema reads `{ type: 'object' }`. */
function isOpaque(schema: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(schema);
  return keys.length === 1 && schema['type'] === 'object';
}

/**
 * The identity of an agent: its declared `id`, or a description to derive one from (tools' names
 * and input schemas, the output schema, told apart by identity when it has no JSON Schema).
 * @throws {AgentConfigurationError} for a bad `id` or `stateTtlMs`, and when a `stateKey` is set
 *   (states resume in other processes) on an agent whose output schema has no JSON Schema and no `id`.
 */
export function agentIdentity(options: AgentOptions, config: RunConfig): AgentIdentity {
  const { id, stateTtlMs = DEFAULT_STATE_TTL_MS } = options;
  if (id !== undefined && (typeof id !== 'string' || id.length === 0 || id.length > 200)) {
    throw new AgentConfigurationError({ setting: 'id', message: 'must be a string of 1-200 characters' });
  }
  if (!(typeof stateTtlMs === 'number' && Number.isInteger(stateTtlMs) && stateTtlMs >= 1)) {
    throw new AgentConfigurationError({ setting: 'stateTtlMs', message: `must be a whole number of milliseconds >= 1, got ${String(stateTtlMs)}` });
  }
  const validator = config.output?.validator;
  const opaque = validator !== undefined && isOpaque(validator.jsonSchema);
  if (opaque && id === undefined && options.stateKey !== undefined) {
    throw new AgentConfigurationError({
      setting: 'id',
      message: 'the output schema has no JSON Schema ({ parse }, Zod 3), so its states cannot name it in another process: give the agent an id (Agent.create({ id: "refunds-v1", ... }))',
    });
  }
  let output: unknown = validator?.jsonSchema ?? null;
  if (opaque && validator) {
    let token = tokens.get(validator);
    if (token === undefined) tokens.set(validator, (token = globalThis.crypto.randomUUID()));
    output = { opaque: token };
  }
  const tools = [...config.tools.values()].map((tool) => [tool.name, tool.specification.inputSchema]);
  return { id, description: { tools, output }, stateTtlMs };
}
