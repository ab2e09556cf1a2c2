import type { ToolSearchConfig } from '../../tools/search/tool-search';
import type { JournalListener } from '../journal/journal-writer';
import type { PreCheckRule, PricingTable, ReliabilityRule, SchemaValidator } from '@keel/reliability';
import type { ModelTarget, OutputFallbackOptions, OutputOptions } from '../../contracts/agent-options';
import type { CallWrapper } from '../../shared/call-wrapper';
import type { RecordedTarget, RunRecordListener } from '../../contracts/recorded-run';
import type { ListenerEntry } from '../../events/event-bus';
import type { MemoryStore } from '../../memory/memory-store';
import type { RunStore } from '../../contracts/run-store';
import type { ModelResponse, ToolSpecification } from '@keel/provider';
import type { ToolGuard } from '../../tools/guard';
import type { AnyTool } from '../../tools/tool';
import type { ToolSource } from '../../tools/tool-source';
import type { OutputModeCache } from '../output/output-mode-cache';
import type { ContextConfig } from '../../context/context-options';

/** The validated, frozen configuration a run executes: built once by the builder, never exported. */
export interface RunConfig {
  readonly targets: readonly ModelTarget[];
  readonly maxSteps: number;
  /** How deep runs may nest through agents called as tools. */
  readonly maxDepth: number;
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly stop?: readonly string[];
  readonly pricing?: PricingTable;
  readonly toolRetries: number;
  /** Hard cap on model calls per step. */
  readonly maxAttempts: number;
  readonly maxRetryAfterMs: number;
  readonly maxToolResultBytes: number;
  readonly maxRawOutputChars: number;
  readonly toolTimeoutMs?: number;
  readonly system?: string;
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The distinct sources of the tools (`tool.source`), each observed by every run. */
  readonly toolSources: readonly ToolSource[];
  readonly guards: readonly ToolGuard[];
  readonly memory?: MemoryStore;
  /** How runs stay inside the model's context window (`.context()`); absent when turned off. */
  readonly context?: ContextConfig;
  /** Where durable runs keep their checkpoints and spend approvals (`.durable(store)`). */
  readonly store?: RunStore;
  readonly listeners: readonly ListenerEntry[];
  /** Receive each run's record when it ends (`builder.onRecord()`). */
  readonly recorders: readonly RunRecordListener[];
  /** Receive each entry of each run's journal as it is written (`builder.onJournal()`). */
  readonly journalListeners: readonly JournalListener[];
  /** The targets' names, by provider index, for {@link RecordedRun}. */
  readonly recordedTargets: readonly RecordedTarget[];
  /** The integrations' wrappers of model calls and tool executions, as one; absent when none. */
  readonly wrapCall?: CallWrapper | undefined;
  readonly output?: { readonly validator: SchemaValidator<unknown>; readonly options: OutputOptions };
  readonly outputFallback?: OutputFallbackOptions<unknown>;
  /** PreCheck rules of every model call. */
  readonly preCheck: readonly PreCheckRule<ModelResponse>[];
  /** PostDecide rules of a step call, resolved once at build: the user's, strict-output, defaults. */
  readonly stepRules: readonly ReliabilityRule<ModelResponse>[];
  /**
   * PostDecide rules of a tool call's re-asks: `before` (the user's) and `after` (the defaults) the
   * tool's own re-ask rules, which are made per call (they hold its budget).
   */
  readonly reAskRules: { readonly before: readonly ReliabilityRule<ModelResponse>[]; readonly after: readonly ReliabilityRule<ModelResponse>[] };
  /** Replaces every target provider's secrets in a text (see `ModelProviderV1.redact`). */
  readonly redact: (text: string) => string;
  /** The tools as providers see them, in order. */
  readonly toolSpecifications: readonly ToolSpecification[];
  /** Deferred tools and their search, when the agent defers any. */
  readonly toolSearch?: ToolSearchConfig;
  /** Each target's output mode and strict tools, with the downgrades runs have learned (one per agent). */
  readonly outputModes: OutputModeCache;
}
