import type { AttemptRecord } from '@keel/reliability';
import type { StepRecord } from '../../contracts/step-record';
import type { Compaction } from '../../context/compaction';
import type { FinishReason, Message } from '@keel/provider';
import type { ToolCallRecord } from '../../tools/tool-result';
import type { RunUsage } from '../../usage/usage-ledger';
import type { RunStateSnapshot } from '../../contracts/run-state-snapshot';
import type { Answer, CallDecision, NextStep, ToolIntent } from '../../contracts/run-state';

/** The format version of journal entries this Keel writes and reads (it reads format 1 too: see `upgradeJournalEntry`). */
export const JOURNAL_VERSION = 2;

/**
 * What an entry records:
 * - `input`: the run began (its input messages, system prompt, tenant, conversation);
 * - `model-turn`: the model answered with tool calls (the turn, its attempts and usage);
 * - `answer`: the model gave its final answer (or a fallback tier stood in);
 * - `compaction-due`: the next request would pass `compactAt`, or the vendor refused one as too long;
 * - `compaction`: what the run sends was compacted (a summary's model calls with it);
 * - `tool-intent` / `tool-outcome`: a durable run's tool call is about to run / has finished;
 * - `tool-results`: a turn's calls all finished, the turn and its results are kept;
 * - `suspension-due`: calls of the turn wait for approval or a settled outcome;
 * - `suspension`: the run suspended (its sealed state's signature and the calls that wait);
 * - `resume`: a suspended run went on with the caller's decisions;
 * - `recovery`: a durable run was continued from its journal by `recover()` or `iter()`;
 * - `end`: the run has its final answer;
 * - `failure`: the run failed or was aborted (a journal that ends with one can be recovered).
 */
export type JournalEntryType =
  | 'input'
  | 'model-turn'
  | 'answer'
  | 'compaction-due'
  | 'compaction'
  | 'tool-intent'
  | 'tool-outcome'
  | 'tool-results'
  | 'suspension-due'
  | 'suspension'
  | 'resume'
  | 'recovery'
  | 'end'
  | 'failure';

/** How the run began: what an `input` entry holds besides the messages it adds. */
export interface JournalStart {
  readonly version: typeof JOURNAL_VERSION;
  readonly conversationId?: string;
  readonly tenant?: string;
  readonly system?: string;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  /** The run that called this one, and its tool call, when the agent ran as a tool. */
  readonly parentRunId?: string;
  readonly parentToolCallId?: string;
}

/**
 * What a `suspension` entry holds: the sealed state's own fields, as {@link RunStateSnapshot} has
 * them (the lists the state holds are the journal's), and the run's usage when it suspended.
 */
export type JournalSuspension = Pick<RunStateSnapshot, 'agent' | 'expiresAt' | 'suspensionId' | 'suspendedAt' | 'turn' | 'pending' | 'unknown'> & { readonly usage: RunUsage };

/** How the run ended, in an `end` entry (complete) or a `failure` entry (error, abort). */
export interface JournalEnd {
  readonly text: string;
  readonly finishReason: FinishReason;
  readonly answer?: Answer;
  readonly errorName?: string;
  readonly errorMessage?: string;
  readonly aborted?: boolean;
  /** The run's usage when it ended. */
  readonly usage: RunUsage;
}

/**
 * One entry of a run's journal: plain JSON, written once and never again. `seq` numbers a run's
 * entries from 0 without a gap; the run's state after an entry is the fold of the entries up to it
 * (`foldJournal`). An entry holds what its step added to the run's lists (`messages`, `steps`,
 * `toolCalls`, `attempts`) and what it replaced (`compaction`, `loops`, `next`), never a copy of
 * what an earlier entry holds. Tool call ids in it are Keel's, unique within the run.
 * `mac` chains the entry to the one before it (HMAC-SHA-256 with the agent's `stateKey`): a
 * journal changed anywhere is refused as `tampered`.
 */
export interface JournalEntry {
  readonly seq: number;
  readonly type: JournalEntryType;
  readonly runId: string;
  /** Milliseconds since the epoch when the entry was written. */
  readonly at: number;
  /** The run's step when the entry was written (0 before the first). */
  readonly step: number;
  /** Milliseconds the run had been under way when the entry was written (every part of it, resumed parts included). */
  readonly elapsedMs: number;
  readonly messages?: readonly Message[];
  readonly steps?: readonly StepRecord[];
  readonly toolCalls?: readonly ToolCallRecord[];
  /** Model calls made since the entry before (failed attempts, re-asks and summaries included). */
  readonly attempts?: readonly AttemptRecord[];
  readonly compaction?: Compaction;
  /** Deferred tools loaded so far (the whole list, in the order loaded), when a step loaded one. */
  readonly loadedTools?: readonly string[];
  /** Action loops the run's loop rules detected so far (each one a nudge, until a rule stops the run). */
  readonly loops?: number;
  /** The step the run takes next. */
  readonly next?: NextStep;
  /** Model calls the run had made when the current step began (its step record counts those after). */
  readonly stepCalls?: number;
  readonly start?: JournalStart;
  readonly intent?: ToolIntent;
  readonly outcome?: ToolCallRecord;
  readonly suspension?: JournalSuspension;
  readonly decisions?: Readonly<Record<string, CallDecision>>;
  readonly end?: JournalEnd;
  /** HMAC-SHA-256 (hex) of the entry before's `mac` and this entry's JSON without it: present when the journal is kept to be continued (a run store, `agent.iter()`). */
  readonly mac?: string;
}

/** An entry before it is numbered and chained. */
export type JournalDraft = Omit<JournalEntry, 'seq' | 'runId' | 'at' | 'mac' | 'elapsedMs'>;
