import { canonicalJson } from '@keel/reliability/internal';
import { RUN_STATE_VERSION, type RunStateSnapshot, type UnsignedState } from '../../contracts/run-state-snapshot';
import { RunStateError } from '../../errors/run-state-error';
import type { StateSigner } from './state-signer';
import { RUN_STATE_VERSION_1, upgradeRunState } from './upgrade-run-state';

/** Signs a state: it becomes plain JSON (what a store or client will hand back) and gets its signature. */
export async function sealState(unsigned: UnsignedState, signer: StateSigner): Promise<RunStateSnapshot> {
  const body = JSON.parse(JSON.stringify({ type: 'keel.run-state', version: RUN_STATE_VERSION, ...unsigned })) as Omit<RunStateSnapshot, 'signature'>;
  return Object.freeze({ ...body, signature: await signer.sign(canonicalJson(body)) });
}

/**
 * Reads a state handed back: plain JSON of the expected type and version, made by this agent,
 * and signed with its key. Its content is then exactly what the agent suspended with; a state of
 * format 1 comes back upgraded (see `upgradeRunState`).
 * @throws {RunStateError} naming the problem; nothing of the state is trusted before the signature.
 */
export async function openState(given: unknown, agent: string, signer: StateSigner, tenant?: string, now = Date.now()): Promise<RunStateSnapshot> {
  let value: unknown;
  try {
    // Keel's own copy, read once: getters, proxies and class instances become plain data.
    value = JSON.parse(JSON.stringify(given) ?? 'null');
  } catch (error) {
    throw new RunStateError({ problem: 'malformed', message: 'the state is not JSON data', cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { type?: unknown }).type !== 'keel.run-state') {
    throw new RunStateError({ problem: 'malformed', message: 'this is not a run state (give the `state` of a suspended result)' });
  }
  const state = value as Record<string, unknown>;
  if (state.version !== RUN_STATE_VERSION && state.version !== RUN_STATE_VERSION_1) {
    throw new RunStateError({ problem: 'unsupported-version', message: `the state has format version ${JSON.stringify(state.version)}; this Keel reads versions ${RUN_STATE_VERSION_1} and ${RUN_STATE_VERSION}` });
  }
  if (state.agent !== agent) {
    throw new RunStateError({ problem: 'other-agent', message: 'the state was made by another agent (other tools or output schema); resume it with the agent that suspended it' });
  }
  const { signature, ...body } = state;
  let valid = false;
  try {
    valid = typeof signature === 'string' && (await signer.verify(canonicalJson(body), signature));
  } catch (error) {
    throw new RunStateError({ problem: 'malformed', message: 'the state could not be read', cause: error });
  }
  if (!valid) {
    throw new RunStateError({
      problem: 'bad-signature',
      message: `the state's signature does not match: it was changed, or signed with another key${signer.ephemeral ? ' (this agent has no stateKey, so it resumes only states it made itself, in this process)' : ''}`,
    });
  }
  // Signed fields only from here: who the state is for, and until when.
  if (state.tenant !== tenant) {
    throw new RunStateError({ problem: 'other-tenant', message: state.tenant === undefined ? 'the state was made without a tenant; resume it without one' : 'the state was made for another tenant; resume it with the tenant it was made for' });
  }
  if (typeof state.expiresAt !== 'number' || !(now <= state.expiresAt)) {
    throw new RunStateError({ problem: 'expired', message: `the state expired at ${typeof state.expiresAt === 'number' ? new Date(state.expiresAt).toISOString() : 'an unknown time'} (the agent's stateTtlMs)` });
  }
  return state.version === RUN_STATE_VERSION_1 ? upgradeRunState(state) : (value as RunStateSnapshot);
}
