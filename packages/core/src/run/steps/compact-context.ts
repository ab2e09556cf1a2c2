import { AbortedError, ReliabilityFailFastError } from '@keel/reliability';
import type { GateVerdict } from '@keel/reliability';
import { classifyError } from '@keel/reliability/internal';
import type { RunResult } from '../../contracts/run-result';
import { type Compaction, compactedView, firstUserIndex, NO_COMPACTION } from '../../context/compaction';
import type { ContextConfig } from '../../context/context-options';
import { estimateRequestTokens, type RequestFrame } from '../../context/estimate-tokens';
import { type CompactionLimits, type CompactionTier, planCompaction } from '../../context/plan-compaction';
import { summaryRequest } from '../../context/summary-request';
import { hiddenTools } from '../../tools/search/tool-search';
import { withSummary } from '../../context/summary-choice';
import { ContextOverflowError } from '../../errors/context-overflow-error';
import type { ModelTarget } from '../../contracts/agent-options';
import type { Message, ModelResponse } from '@keel/provider';
import { attemptLoop } from '../attempt/attempt-loop';
import { summarySettings } from '../attempt/gate-settings';
import type { RunContext } from '../state/run-context';
import type { NextStep, RunState, StepOutcome, ToolTurn } from '../../contracts/run-state';

type Outcome = StepOutcome<RunResult<unknown>>;

/** What the run keeps (memory's conversation, then its own messages): what compaction reads, never changes. */
const keptOf = (state: RunState): readonly Message[] => (state.history === undefined || state.history.length === 0 ? state.messages : state.history.concat(state.messages));

/** What every request sends besides its messages: the system prompt, the tools (deferred ones the run has not loaded aside), the output schema. */
function frameOf(context: RunContext, state: RunState): RequestFrame {
  const { config } = context;
  const output = config.output ? [{ name: 'output', inputSchema: config.output.validator.jsonSchema }] : [];
  const hidden = config.toolSearch === undefined ? undefined : hiddenTools(config.toolSearch, state.loadedTools);
  const tools = hidden === undefined ? config.toolSpecifications : config.toolSpecifications.filter((tool) => !hidden.has(tool.name));
  return { system: context.system, tools: [...tools, ...output] };
}

/** Whether the next step's request, as it would be sent, passes `compactAt` of the window. */
export function passesCompactAt(context: RunContext, state: RunState, settings: ContextConfig | undefined): boolean {
  const window = windowOf(settings, state.compaction);
  if (settings === undefined || window === undefined) return false;
  const kept = keptOf(state);
  const sent = state.compaction === undefined ? kept : compactedView(kept, state.compaction);
  return estimateRequestTokens(frameOf(context, state), sent) > window * settings.compactAt;
}

/** The window a run plans for: the declared one, or the smaller one a refusal showed. */
function windowOf(settings: ContextConfig | undefined, compaction: Compaction | undefined): number | undefined {
  const shown = compaction?.window;
  const declared = settings?.window;
  return shown === undefined ? declared : Math.min(shown, declared ?? shown);
}

/**
 * When a call failed because the vendor refused the request as too long: the first time (and
 * when the agent recovers overflows), the run compacts and retries; the second time it fails with
 * a {@link ContextOverflowError} carrying the token counts. Anything else: undefined. A step's
 * call retries the step; a tool-argument re-ask of `turn` (with the calls that finished beside
 * it) retries the turn's calls, those that finished kept.
 */
export function overflowOutcome(context: RunContext, state: RunState, compacted: 'threshold' | 'overflow' | undefined, error: unknown, turn?: ToolTurn): Outcome | undefined {
  const settings = context.config.context;
  if (!settings?.recoverOverflow || !isOverflow(error)) return undefined;
  if (compacted === 'overflow') throw overflowError(context, state, error);
  const next: NextStep = turn === undefined ? { type: 'compact-context', reason: 'overflow' } : { type: 'compact-context', reason: 'overflow', turn };
  return { type: 'next', state: { ...state, next } };
}

function isOverflow(error: unknown): boolean {
  if (ReliabilityFailFastError.isInstance(error)) return error.errorKind === 'context-overflow';
  return classifyError(error).errorKind === 'context-overflow';
}

function overflowError(context: RunContext, state: RunState, cause?: unknown): ContextOverflowError {
  const kept = keptOf(state);
  const sent = state.compaction === undefined ? kept : compactedView(kept, state.compaction);
  return new ContextOverflowError({
    estimatedTokens: estimateRequestTokens(frameOf(context, state), sent),
    contextWindow: windowOf(context.config.context, state.compaction),
    compactions: state.compaction?.count ?? 0,
    attempts: context.ledger.attempts.slice(),
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The step `compact-context`: plans the compaction of what the run sends (the pure tiers of
 * `context/plan-compaction.ts`), asks `summarize` for a summary of older turns when clearing is
 * not enough, reports `context.compacted`, and goes on to `ask-model` (or, when the refused call
 * was a tool-argument re-ask, to the `turn`'s calls again). After a vendor's refusal (`overflow`)
 * it compacts whatever the estimate said, down to the target share of the smaller of the window
 * and the refused request. The kept messages never change: only `state.compaction`.
 */
export async function compactContext(context: RunContext, state: RunState): Promise<Outcome> {
  const next = state.next;
  if (next.type !== 'compact-context') throw new TypeError(`the compact-context step cannot take a ${next.type} step`);
  // The compaction belongs to the step it makes room for (the driver gives it that step's context):
  // the next one, or the one whose re-ask the vendor refused.
  const settings = context.config.context as ContextConfig;
  const overflow = next.reason === 'overflow';
  const kept = keptOf(state);
  const frame = frameOf(context, state);
  const before = state.compaction ?? NO_COMPACTION;
  const sentTokens = estimateRequestTokens(frame, compactedView(kept, before));
  const planned = windowOf(settings, before);
  const window = overflow ? Math.min(planned ?? sentTokens, sentTokens) : (planned as number);
  const limits: CompactionLimits = { window, compactAt: overflow ? 0 : settings.compactAt, target: settings.target, keepRecent: settings.keepRecent, summaryTokens: summaryTokens(window) };
  const found = planCompaction(frame, kept, before, limits);
  // A refusal shows the window is no larger than the refused request: later steps plan for it.
  const plan = found && overflow ? { ...found, compaction: { ...found.compaction, window } } : found;
  let compaction = plan?.compaction;
  const tiers: CompactionTier[] = plan ? [...plan.tiers] : [];
  if (plan?.summarize && settings.summarize !== false && compaction) {
    // The summarizer reads what was sent before this compaction: results cleared just now, whole.
    const text = await summarize(context, settings.summarize, kept, before, plan.summarize.through, window);
    const summarized = text === undefined ? undefined : withSummary(frame, kept, compaction, text, plan.summarize.through);
    if (summarized !== undefined) {
      compaction = summarized;
      tiers.push('summary');
    }
  }
  const then: RunState = { ...state, next: next.turn === undefined ? { type: 'ask-model', compacted: next.reason } : { type: 'call-tools', turn: next.turn } };
  const tokensAfter = compaction && tiers.length > 0 ? estimateRequestTokens(frame, compactedView(kept, compaction)) : sentTokens;
  // Nothing made the request fit: it would only be refused. Fail before sending it.
  if (tokensAfter > window || (overflow && tiers.length === 0)) throw overflowError(context, compaction && tiers.length > 0 ? { ...state, compaction } : state);
  if (!compaction || tiers.length === 0) return { type: 'next', state: then };
  if (context.listens('context.compacted')) {
    context.emit('context.compacted', {
      reason: next.reason,
      tier: tiers.at(-1) as CompactionTier,
      tiers: tiers.join(', '),
      tokensBefore: sentTokens,
      tokensAfter,
      contextWindow: window,
      clearedResults: Object.keys(compaction.cleared).length,
      compactions: compaction.count,
    });
  }
  return { type: 'next', state: { ...then, compaction } };
}

/** Longest summary asked for, in tokens. */
const MAX_SUMMARY_TOKENS = 4096;

/** The tokens a summary may take under `window`: a twentieth of it, 256 to 4,096. */
const summaryTokens = (window: number): number => Math.max(256, Math.min(MAX_SUMMARY_TOKENS, Math.floor(window * 0.05)));

/**
 * The summary of the kept messages after the first user message up to `through` (as they are
 * sent: cleared results as their markers, an earlier summary as it stands), written by `target`.
 * The call goes through the attempt loop as any call does: the run's PreCheck first (a budget
 * that stops it ends the run), a transient error retried, the attempts in the run's ledger (usage
 * and cost, `purpose: 'summary'`) and its events. A call that fails otherwise leaves the
 * compaction without a summary (its `model.error` says why); an abort ends the run.
 */
async function summarize(context: RunContext, target: ModelTarget, kept: readonly Message[], compaction: Compaction, through: number, window: number): Promise<string | undefined> {
  const sent = compactedView(kept.slice(0, through), compaction);
  const request = summaryRequest(target.model, sent.slice(firstUserIndex(sent) + 1), summaryTokens(window));
  try {
    const outcome = await attemptLoop(context, { messages: NO_MESSAGES, settings: summarySettings(context), judge: summaryVerdict, feedbackMessages: () => NO_MESSAGES, sends: { target, request } });
    const text = outcome.type === 'accepted' ? outcome.response?.text.trim() : undefined;
    return text === undefined || text.length === 0 ? undefined : text;
  } catch (error) {
    if (context.signal?.aborted || AbortedError.isInstance(error)) throw context.signal ? AbortedError.fromSignal(context.signal) : error;
    // A budget or another PreCheck rule stops the run, as it would stop the step's own call.
    if (ReliabilityFailFastError.isInstance(error) && error.phase === 'pre-check') throw error;
    return undefined;
  }
}

const NO_MESSAGES: readonly Message[] = Object.freeze([]);

/** A summary is not validated: any answer is taken (an empty one is no summary). */
const summaryVerdict = (response: ModelResponse): GateVerdict<string> => ({ status: 'valid', value: response.text, rawOutput: response.text });
