import type { AttemptRecord, JsonRepair, ValidationIssue } from '@keel/reliability';
import type { Coercion } from '@keel/reliability/internal';
import type { RunStateSnapshot } from './run-state-snapshot';
import type { FinishReason, Message } from '@keel/provider';
import type { PendingApproval } from '../tools/pending-approval';
import type { ToolCallRecord } from '../tools/tool-result';
import type { UnknownOutcome } from '../tools/unknown-outcome';
import type { RunUsage } from '../usage/usage-ledger';
import type { Provenance } from './provenance';
import type { StepRecord } from './step-record';

export type { Provenance, StepRecord };

/** What a result holds however the run ended: its messages, steps, tool calls and every model call counted. */
export interface RunRecord {
  readonly runId: string;
  /** The final answer's text (for a fallback tier, the value as JSON); empty when the run has no answer. */
  readonly text: string;
  /** The messages of this run that are kept (input, model turns, tool results); never ephemeral ones. */
  readonly messages: readonly Message[];
  readonly steps: readonly StepRecord[];
  /** One record per logical tool call, with its final arguments. */
  readonly toolCalls: readonly ToolCallRecord[];
  /** One record per model call, failed attempts and re-asks included. */
  readonly attempts: readonly AttemptRecord[];
  /** Every model call counted, failed ones included. */
  readonly usage: RunUsage;
  readonly finishReason: FinishReason;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly durationMs: number;
}

/** A run that has its final answer: `value` is the validated value (the text without an output schema). */
export interface CompleteRunResult<T> extends RunRecord {
  readonly status: 'complete';
  /** The validated value with an output schema, else the text. */
  readonly value: T;
  /** Whether `value` is the model's answer or a degraded one. */
  readonly provenance: Provenance;
  /** Lossless local repairs applied to the final answer before parsing, by name. */
  readonly repairs: readonly JsonRepair[];
  /** Schema-guided coercions applied to the final answer (path, from, to). */
  readonly coercions: readonly Coercion[];
  /** With `strict: false`, the issues the returned value has. */
  readonly issues: readonly ValidationIssue[];
  /** No call waits: always empty for a complete run. */
  readonly pendingApprovals: readonly [];
  /** No call has an unknown outcome: always empty for a complete run. */
  readonly unknownOutcomes: readonly [];
}

/**
 * A run that stopped at tool calls needing approval, or (a recovered durable run) at calls of
 * `once` tools whose outcome a crash left unknown: it has no `value` (and `text` is empty);
 * `pendingApprovals` and `unknownOutcomes` list the calls that wait, and `state` resumes the run
 * (`agent.resume(result.state, { approve, reject })`, `{ outcomes, retry }`).
 */
export interface SuspendedRunResult extends RunRecord {
  readonly status: 'suspended';
  /** The tool calls waiting for approval. */
  readonly pendingApprovals: readonly PendingApproval[];
  /** Calls of `once` tools a crash left without a known outcome: a person settles each (`outcomes`, `retry`). */
  readonly unknownOutcomes: readonly UnknownOutcome[];
  /** Plain JSON to store, and to give back to `agent.resume()`. */
  readonly state: RunStateSnapshot;
}

/**
 * The outcome of a run, a union on `status`: narrow it before reading what only one side has.
 * `complete` has the typed `value`; `suspended` (an agent whose tools need approval) has `state`
 * and `pendingApprovals` and no `value`.
 *
 * ```ts
 * const result = await agent.run('Refund order 7');
 * if (result.status === 'suspended') await store(result.state);
 * else console.log(result.value);
 * ```
 */
export type RunResult<T = string> = CompleteRunResult<T> | SuspendedRunResult;

/** Per-run options. */
export interface RunOptions {
  /** Cancels the run: reaches the provider request, every wait and running tools. */
  readonly signal?: AbortSignal;
  /**
   * Milliseconds the whole run may take: then it is aborted like a signal, and ends with an
   * `AbortedError` whose `timedOut` is true (its cause a `TimeoutError`). No limit by default.
   */
  readonly timeoutMs?: number;
  /** Id tying the run's events together. Default: a random UUID. */
  readonly runId?: string;
  /** Memory conversation to load and append to. Default `default` when the agent has memory. */
  readonly conversationId?: string;
  /**
   * The tenant the run works for: signed into a suspended state, which then resumes only for the
   * same tenant (`agent.resume(state, decisions, { tenant })`).
   */
  readonly tenant?: string;
}

/** What `run()` takes as input: a user message (a string, or `{ message }`), or messages (never mutated). */
export type RunInput = string | { readonly message: string } | readonly Message[];
