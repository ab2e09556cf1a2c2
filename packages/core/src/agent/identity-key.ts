import { canonicalJson } from '@keel/reliability/internal';
import type { AgentIdentity } from './agent-identity';

/** Each built agent's identity, for a synchronous comparison of two agents' ids. */
const identities = new WeakMap<object, AgentIdentity>();

/** Records the identity of a built agent (its constructor does). */
export function recordIdentity(agent: object, identity: AgentIdentity): void {
  identities.set(agent, identity);
}

/**
 * A key equal for two agents whose ids are equal, read at once (`agent.id()` digests, so it is
 * asynchronous): the declared id, or the canonical JSON of what a derived id is a digest of (the
 * tools' names and input schemas, the output schema). `undefined` for what is not a built agent.
 * A declared id that happens to equal another agent's digest is not seen here.
 */
export function agentIdentityKey(agent: unknown): string | undefined {
  const identity = typeof agent === 'object' && agent !== null ? identities.get(agent) : undefined;
  if (!identity) return undefined;
  return identity.id === undefined ? `derived:${canonicalJson(identity.description)}` : `declared:${identity.id}`;
}
