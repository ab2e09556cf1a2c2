import type { TokenUsage } from '@keel/core/internal';

/** A kept message of the run, as the page shows it (recorded with content only). */
export interface MessageView {
  readonly role: string;
  /** Ephemeral: feedback or a rejected output, sent for one attempt only and never kept. */
  readonly ephemeral: boolean;
  readonly text: string;
}

/** A validation failure of an attempt's output. */
export interface IssueView {
  readonly stage: string;
  readonly issueCount: number;
  /** With content only. */
  readonly message?: string;
  readonly pathText?: string;
  readonly rawOutput?: string;
}

/** What was decided after an attempt, and by which rule. */
export interface DecisionView {
  /** `retry`, `retry-other`, `re-ask` (a tool call's arguments), `fail-fast`, `accept`, `run tools`. */
  readonly type: string;
  /** The rule that made it (its kind), when the trace names one. */
  readonly rule?: string;
  readonly errorKind?: string;
  readonly delayMs?: number;
  /** How an accepted attempt overcame earlier failures (`feedback`, `patch`...). */
  readonly via?: string;
  readonly label?: string;
}

/** The feedback an attempt carried, sent as ephemeral messages because the attempt before failed. */
export interface FeedbackView {
  /** `retry` (the answer was re-asked) or `re-ask` (a tool call's arguments were). */
  readonly type: 'retry' | 're-ask';
  /** The rule whose decision sent it. */
  readonly rule?: string;
  /** With content only. */
  readonly text?: string;
}

/** Usage and outcome of a model call. */
export interface ResponseView extends TokenUsage {
  /** On a step's accepted call. */
  readonly finishReason?: string;
  readonly latencyMs?: number;
  /** On a step's accepted call. */
  readonly toolCalls?: number;
}

/** One model call: a step's call, a re-ask of a tool call's arguments, or a summary of older turns. */
export interface AttemptView {
  /** Unique within the run, for links (`compare=`). */
  readonly key: string;
  readonly step: number;
  readonly attempt: number;
  /** `step`, `tool-re-ask` or `summary`. */
  readonly purpose: string;
  readonly toolCallId?: string;
  readonly provider: string;
  readonly model: string;
  /** Whether the entry that holds the call was written with content (`recordContent`): without, its messages and text were left out. */
  readonly contentRecorded: boolean;
  /** `valid` (accepted), `invalid` (failed validation) or `error`, with the failure's kind; missing for a call no entry holds yet. */
  readonly status?: string;
  readonly errorKind?: string;
  /** How many validation issues the output had. */
  readonly issueCount?: number;
  /** Whether the request carried feedback about the previous attempt. */
  readonly feedbackSent?: boolean;
  /** How the output was obtained when it was not one reply as it stands (`patch`, `continuation`). */
  readonly via?: string;
  readonly feedback?: FeedbackView;
  /** With content only: the kept messages added since the run's previous request (the first call of a step). */
  readonly newMessages?: readonly MessageView[];
  /** With content only: the output that was validated. */
  readonly answer?: string;
  readonly response?: ResponseView;
  readonly error?: { readonly errorKind: string; readonly errorName: string; readonly message?: string };
  readonly issues: readonly IssueView[];
  readonly decision?: DecisionView;
  readonly repaired?: { readonly repairs: string; readonly coercions: number; readonly coercedPaths?: string };
  /** Waits before the call, other reports (rule errors, usage the provider got wrong). */
  readonly notes: readonly string[];
}

/** A tool call of a step. */
export interface ToolCallView {
  readonly toolCallId: string;
  /** Missing without content for a tool the model made up. */
  readonly toolName?: string;
  readonly isError?: boolean;
  readonly errorCode?: string;
  readonly durationMs?: number;
  /** Values coerced to the tool's schema (when there were any). */
  readonly coercions?: number;
  /** Re-asks of its arguments. */
  readonly reAsks?: number;
  /** Runs of agents called as this tool. */
  readonly children: readonly RunView[];
}

/** One step of a run: its model calls in order, and its tool calls. */
export interface StepView {
  readonly step: number;
  readonly attempts: readonly AttemptView[];
  readonly tools: readonly ToolCallView[];
  readonly end?: { readonly finishReason: string; readonly toolCalls: number; readonly final: boolean };
  readonly notes: readonly string[];
}

/** A call the run waits on when it suspends. */
export interface WaitingCallView {
  readonly toolCallId: string;
  readonly toolName: string;
}

/** A part of a run: from its input, a resume or a recovery, to its end, a suspension or a failure. */
export interface SegmentView {
  readonly startedAt: number;
  readonly provider: string;
  readonly model: string;
  /** Began by a resume: what was decided about the calls that waited. */
  readonly resumed?: { readonly approved: number; readonly rejected: number; readonly settled: number; readonly retried: number };
  /** Began by a recovery: the run was continued from its journal (after its process stopped) at this step. */
  readonly recovered?: { readonly step: number };
  readonly steps: readonly StepView[];
  /** Ended by a suspension: the calls that wait for approval, and those whose outcome is unknown. */
  readonly suspended?: { readonly suspensionId: string; readonly pending: readonly WaitingCallView[]; readonly unknown: readonly WaitingCallView[] };
  /** `durationMs` is missing when the journal does not say how long this part took. */
  readonly end?: { readonly status: string; readonly durationMs?: number; readonly errorName?: string; readonly errorMessage?: string };
  readonly notes: readonly string[];
}

/** A run's totals, for the list of runs and the run's header. */
export interface RunSummary {
  readonly runId: string;
  readonly parentRunId?: string;
  /** The parent's tool call this run answered (named by the run's record). */
  readonly parentToolCallId?: string;
  /**
   * Set when the run's chain of parents never reaches a top-level run (a hand-made or corrupted
   * trace): the runs of the loop it enters, each named as the previous one's parent (`[a]`: a run
   * that is its own parent). Such a run is listed at top level.
   */
  readonly parentLoop?: readonly string[];
  readonly startedAt: number;
  /** How the last part of the run ended (`complete`, `failed`, `aborted`, `suspended`, `stopped`), or `running`. */
  readonly status: string;
  readonly provider: string;
  readonly model: string;
  /** Model calls, tokens and cost of the run and of its sub-agents, as the run's ledger counts them (once it ended or suspended; while it runs, its calls so far and its sub-agents'). */
  readonly modelCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Present when every call was priced. */
  readonly costUsd?: number;
  /** How many of the model calls its sub-agents made. */
  readonly subAgentCalls: number;
  /** Retries of answers plus re-asks of tool arguments. */
  readonly reAsks: number;
  readonly steps: number;
}

/** Everything the page shows of one run. */
export interface RunView {
  readonly summary: RunSummary;
  /** Whether the run was traced with content (`recordContent`). */
  readonly contentRecorded: boolean;
  readonly segments: readonly SegmentView[];
  /** Every model call in order, for the cost chart and `compare=`. */
  readonly attempts: readonly AttemptView[];
  /** Runs with this run as their parent that no tool call of it claims. */
  readonly children: readonly RunView[];
}
