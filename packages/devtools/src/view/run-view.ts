/** A message of a request, as the page shows it (from `model.content`, recorded with content only). */
export interface MessageView {
  readonly role: string;
  /** Ephemeral: feedback or a rejected output, sent for this attempt only and never kept. */
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
export interface ResponseView {
  /** Missing when the trace holds the run's record only (it keeps no finish reason per call). */
  readonly finishReason?: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly costUsd?: number;
  /** Missing when the run's record does not say. */
  readonly latencyMs?: number;
  /** Missing when the trace holds the run's record only. */
  readonly toolCalls?: number;
}

/** One model call: a step's attempt or a re-ask of a tool call's arguments. */
export interface AttemptView {
  /** Unique within the run, for links (`compare=`). */
  readonly key: string;
  readonly step: number;
  readonly attempt: number;
  /** `step` or `tool-re-ask`. */
  readonly purpose: string;
  readonly toolCallId?: string;
  readonly provider: string;
  readonly model: string;
  /** The request's shape: missing when the trace holds the run's record only (it keeps none of it). */
  readonly messageCount?: number;
  readonly ephemeralCount?: number;
  /** Messages this request has that the run's previous request did not (with content, or from the request's counts). */
  readonly newMessageCount?: number;
  readonly toolChoice?: string;
  readonly outputMode?: string;
  /** From the run's record: `ok` (accepted), `invalid` (failed validation) or `error`, with the failure's kind. */
  readonly status?: string;
  readonly errorKind?: string;
  /** From the run's record: how many validation issues the output had. */
  readonly issueCount?: number;
  /** From the run's record: whether the request carried feedback about the previous attempt. */
  readonly feedbackSent?: boolean;
  /** From the run's record: how the output was obtained when it was not one reply as it stands (`patch`, `continuation`). */
  readonly via?: string;
  readonly feedback?: FeedbackView;
  /** With content only: the request's new messages, and the answer's text and tool calls. */
  readonly newMessages?: readonly MessageView[];
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
  /** Missing without content until the tool ran (the model may have made the name up). */
  readonly tool?: string;
  readonly validation?: { readonly outcome: string; readonly retryCount: number };
  readonly isError?: boolean;
  readonly errorCode?: string;
  readonly durationMs?: number;
  /** Values coerced to the tool's schema (from the run's record, when there were any). */
  readonly coercions?: number;
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

/** From a `run.start` to its `run.end`: a suspended run resumed has two. */
export interface SegmentView {
  readonly startedAt: number;
  readonly provider: string;
  readonly model: string;
  readonly resumed?: { readonly suspensionId: string; readonly approved: number; readonly rejected: number };
  readonly steps: readonly StepView[];
  readonly suspended?: { readonly suspensionId: string; readonly tools: string; readonly toolCallIds: string; readonly pending: number };
  /** `durationMs` is missing when the trace does not say how long this segment took. */
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
  /** The last `run.end`'s (or run record's) status, or `running`. */
  readonly status: string;
  readonly provider: string;
  readonly model: string;
  /** Model calls, tokens and cost of the run and of its sub-agents, as the run's ledger counts them. */
  readonly modelCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Present when every call was priced. */
  readonly costUsd?: number;
  /** How many of the model calls its sub-agents made. */
  readonly subAgentCalls: number;
  /**
   * Set while a run written as records has none yet (it is running): its model calls, tokens and
   * cost are not in the file, and read 0 here.
   */
  readonly totalsPending?: true;
  /** Retries of answers plus re-asks of tool arguments. */
  readonly reAsks: number;
  readonly steps: number;
}

/** Everything the page shows of one run. */
export interface RunView {
  readonly summary: RunSummary;
  readonly segments: readonly SegmentView[];
  /** Every model call in order, for the cost chart and `compare=`. */
  readonly attempts: readonly AttemptView[];
  /** Runs with this run as their parent that no tool call of it claims. */
  readonly children: readonly RunView[];
}
