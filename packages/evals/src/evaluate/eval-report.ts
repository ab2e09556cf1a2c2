/** The report of one eval: what `evaluate()` returns and `keel-eval` writes as JSON. */

/** Token counts. */
export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly total: number;
}

/** How a run got to its answer, from its attempts (its ledger) and events. */
export interface ItemReliability {
  /** The run completed with no re-ask: every output and tool call valid as first written (local repairs allowed). */
  readonly firstPassValid: boolean;
  /** Model calls that carried feedback about a rejected output or tool call (patches included). */
  readonly reAsks: number;
  /** Of those, re-asks for a tool call's arguments. */
  readonly toolReAsks: number;
  /** Calls that failed transiently (rate limit, overload, server error, timeout, network). */
  readonly transientFailures: number;
  /** Lossless repairs applied to the final answer, by name. */
  readonly repairs: readonly string[];
  /** Schema-guided coercions applied to the final answer, by kind. */
  readonly coercions: readonly string[];
  /** Attempts whose output was a patch to the rejected value. */
  readonly patches: number;
  /** Attempts that continued an answer cut at the token limit. */
  readonly continuations: number;
  /** The run was stopped as a loop (the same mistake repeated, no progress, or an action loop). */
  readonly loop: boolean;
  /** Failed attempts by error kind (`schema-fail`, `rate-limit`...). */
  readonly attemptFailures: Readonly<Record<string, number>>;
}

/** One item's run. */
export interface ItemReport {
  /** 0-based position in the dataset. */
  readonly index: number;
  /** The item's `id`, or its 1-based position. */
  readonly id: string;
  readonly runId: string;
  /** The input as text (a message, or messages as JSON). */
  readonly input: string;
  readonly expected?: unknown;
  /** `pass`: completed and every scorer passed; `fail`: completed, a scorer failed; `error`: the run failed. */
  readonly outcome: 'pass' | 'fail' | 'error';
  /** The run's value, when it completed. */
  readonly value?: unknown;
  readonly text?: string;
  /** `model`, or `fallback` / `canned` for a degraded value. */
  readonly provenance?: string;
  /** Why the run failed: the error's name and message, and its kind (a fail-fast rule's kind, else the error kind). */
  readonly error?: { readonly name: string; readonly message: string; readonly kind: string };
  readonly scores: Readonly<Record<string, { readonly score: number; readonly pass: boolean; readonly reason?: string }>>;
  /** Model calls, failed ones and re-asks included. */
  readonly calls: number;
  readonly tokens: TokenCounts;
  /** Dollars, when a pricing table knows the model; else `null`. */
  readonly costUsd: number | null;
  readonly reliability: ItemReliability;
  readonly durationMs: number;
}

/** The figures of a whole eval. */
export interface EvalSummary {
  readonly items: number;
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  /** passed / items. */
  readonly passRate: number;
  /** Items that completed with the model's own value (not a fallback). */
  readonly validOutputs: number;
  readonly calls: number;
  readonly tokens: TokenCounts;
  readonly costUsd: number | null;
  /** Share of items whose run completed with no re-ask. */
  readonly firstPassValidity: number;
  /** Re-asks per item (mean). */
  readonly reAsksPerItem: number;
  readonly toolReAsks: number;
  readonly transientFailures: number;
  /** Repairs by name, over all items. */
  readonly repairs: Readonly<Record<string, number>>;
  /** Coercions by kind, over all items. */
  readonly coercions: Readonly<Record<string, number>>;
  readonly patches: number;
  readonly continuations: number;
  /** Runs stopped as loops. */
  readonly loops: number;
  /** Failed runs by kind. */
  readonly failuresByKind: Readonly<Record<string, number>>;
  /** Failed attempts by error kind, over all runs. */
  readonly attemptFailuresByKind: Readonly<Record<string, number>>;
  /** All dollars spent / valid outputs; `null` without prices or without a valid output. */
  readonly dollarsPerValidOutput: number | null;
  /** Per scorer: mean score and share passing. */
  readonly scores: Readonly<Record<string, { readonly mean: number; readonly passRate: number }>>;
}

/** What `evaluate()` returns. */
export interface EvalReport {
  /** Format version of the report. */
  readonly keelEvalReport: 1;
  readonly name: string;
  /** ISO time the eval started. */
  readonly startedAt: string;
  readonly durationMs: number;
  readonly summary: EvalSummary;
  readonly items: readonly ItemReport[];
}
