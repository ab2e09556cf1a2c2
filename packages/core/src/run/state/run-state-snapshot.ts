import { canonicalJson } from '@keel/reliability/internal';
import { RunStateError } from '../../errors/run-state-error';
import type { AssistantMessage } from '../../model/message';
import type { FinishReason } from '../../model/model-provider-v1';
import type { PendingApproval } from '../../tools/pending-approval';
import type { ToolCallRecord } from '../../tools/tool-result';
import type { UnknownOutcome } from '../../tools/unknown-outcome';
import type { RunState } from './run-state';
import type { StateSigner } from './state-signer';
import type { JournalHead } from '../journal/journal-head';

/** The format version of {@link RunStateSnapshot}s this Keel writes and reads. */
export const RUN_STATE_VERSION = 1;

/** The step a run suspended in: the model's turn, the calls that ran, the calls that wait. */
export interface SuspendedTurn {
  /** The model's turn, each tool call with the arguments it ran with (or waits with). */
  readonly assistant: AssistantMessage;
  readonly text: string;
  readonly finishReason: FinishReason;
  /** The turn's calls that needed no approval: they ran before the run suspended. */
  readonly finished: readonly ToolCallRecord[];
  /** Model calls made in the step (retries and re-asks included). */
  readonly modelCalls: number;
  /** Milliseconds the step took until it suspended. */
  readonly durationMs: number;
}

/** `T` as JSON keeps it: an optional field is absent, never `undefined`. */
type AsJson<T> = { readonly [K in keyof T]: Exclude<T[K], undefined> };

/** What a suspended state keeps of the run's {@link RunState}: each field means what it does there. */
type KeptRunState = AsJson<Pick<RunState, 'runId' | 'conversationId' | 'tenant' | 'system' | 'startedAt' | 'elapsedMs' | 'step' | 'messages' | 'steps' | 'toolCalls' | 'attempts' | 'usage' | 'compaction' | 'loadedTools'>>;

/**
 * A suspended run, as plain JSON: what `agent.resume()` needs to go on without asking the model
 * again for the suspended step. Versioned, and signed (HMAC-SHA-256 with the agent's `stateKey`)
 * over everything in it: a state that was changed, or that another agent made, is refused.
 * Store it, send it to a client and take it back; never edit it.
 *
 * Besides what it keeps of the run's state (its id, conversation, tenant, system prompt, start,
 * time under way, step, kept messages, steps, tool calls, model calls, usage, what compaction
 * had done to what the run sends and the deferred tools it had loaded, as of the suspension), it holds the suspended turn and the calls that wait.
 */
export interface RunStateSnapshot extends KeptRunState {
  readonly type: 'keel.run-state';
  readonly version: typeof RUN_STATE_VERSION;
  /** The agent that made it: its `id`, or a digest of its tools' names and input schemas and its output schema. */
  readonly agent: string;
  /** Milliseconds since the epoch after which the state is refused (`expired`). */
  readonly expiresAt: number;
  /** New for every suspension: an agent resumes each one once. */
  readonly suspensionId: string;
  /** Milliseconds since the epoch. */
  readonly suspendedAt: number;
  readonly turn: SuspendedTurn;
  /** The calls waiting for a decision. */
  readonly pending: readonly PendingApproval[];
  /** Calls of `once` tools a crash left without a known outcome (a recovered durable run): `outcomes` or `retry` settles each. */
  readonly unknown?: readonly UnknownOutcome[];
  /** Action loops detected before the suspension (absent: none): the resumed run goes on counting. */
  readonly loops?: number;
  /** Where the run's journal stood after its suspension entry: the resumed run's entries go on from it. */
  readonly journal?: JournalHead;
  /** HMAC-SHA-256 (hex) of the rest, in canonical JSON. */
  readonly signature: string;
}

/** A state before it is signed. */
export type UnsignedState = Omit<RunStateSnapshot, 'type' | 'version' | 'signature'>;

/** Signs a state: it becomes plain JSON (what a store or client will hand back) and gets its signature. */
export async function sealState(unsigned: UnsignedState, signer: StateSigner): Promise<RunStateSnapshot> {
  const body = JSON.parse(JSON.stringify({ type: 'keel.run-state', version: RUN_STATE_VERSION, ...unsigned })) as Omit<RunStateSnapshot, 'signature'>;
  return Object.freeze({ ...body, signature: await signer.sign(canonicalJson(body)) });
}

/**
 * Reads a state handed back: plain JSON of the expected type and version, made by this agent,
 * and signed with its key. Its content is then exactly what the agent suspended with.
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
  if (state.version !== RUN_STATE_VERSION) {
    throw new RunStateError({ problem: 'unsupported-version', message: `the state has format version ${JSON.stringify(state.version)}; this Keel reads version ${RUN_STATE_VERSION}` });
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
  return value as RunStateSnapshot;
}
