import { canonicalJson } from '@keel/reliability/internal';
import type { Message, ToolMessage, ToolResultPart } from '@keel/provider';
import { clearedMarker, collapseMarkers } from './collapse-markers';
import { type Compaction, compactedView, firstUserIndex } from './compaction';
import { estimateRequestTokens, estimateTextTokens, type RequestFrame } from './estimate-tokens';

/** The cheapest tier that brought the request under its target (`summary` when tiers 1 and 2 could not). */
export type CompactionTier = 'drop-repeats' | 'clear-results' | 'summary';

/** When and how far to compact. */
export interface CompactionLimits {
  /** The model's context window, in tokens. */
  readonly window: number;
  /** Compact when the request would pass this share of the window. */
  readonly compactAt: number;
  /** Compact down to this share of the window, so compactions are rare and each removes a large share. */
  readonly target: number;
  /** The most recent tool results never cleared. */
  readonly keepRecent: number;
  /**
   * The tokens a summary may take: a stretch that is sent in no more than this (after clearing) is
   * never summarized, as a summary could not make it smaller. Default 0.
   */
  readonly summaryTokens?: number;
}

/** A compaction to make: the new state, and the stretch to summarize when clearing was not enough. */
export interface CompactionPlan {
  readonly compaction: Compaction;
  readonly tiers: readonly CompactionTier[];
  readonly tokensBefore: number;
  /** Estimated tokens once the plan's clearing is applied (before any summary). */
  readonly tokensAfter: number;
  /** Kept messages to summarize (from just after the first user message up to `through`), when clearing was not enough and there is such a stretch. */
  readonly summarize?: { readonly through: number };
}

export { clearedMarker } from './collapse-markers';

interface Candidate {
  readonly part: ToolResultPart;
  /** The call it answers, as `name:arguments`. */
  readonly key: string;
  /** False for the latest `keepRecent` results and for results already cleared. */
  readonly clearable: boolean;
}

/** The tool results after `from`, oldest first, with the call each answers and whether it may be cleared. */
function toolResults(messages: readonly Message[], compaction: Compaction, keepRecent: number, from: number): Candidate[] {
  const calls = new Map<string, string>();
  const results: { part: ToolResultPart; key: string }[] = [];
  for (let index = from; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role === 'assistant') for (const part of message.content) if (part.type === 'tool-call') calls.set(part.id, `${part.name}:${canonicalJson(part.arguments)}`);
    if (message.role === 'tool') for (const part of message.content) results.push({ part, key: calls.get(part.toolCallId) ?? `?${part.toolCallId}` });
  }
  const firstKept = results.length - Math.max(0, Math.floor(keepRecent));
  return results.map((result, index) => ({ ...result, clearable: index < firstKept && !Object.hasOwn(compaction.cleared, result.part.toolCallId) }));
}

/**
 * Plans the next compaction, or `undefined` when the request fits under `compactAt`: tier 1 sends
 * older repeated reads (the same call with the same result later) as a marker, tier 2 clears the
 * bodies of the oldest tool results, each to a marker with its size and call id, until the
 * request is under `target`; the latest `keepRecent` results are never cleared. When that is not
 * enough, the plan names the stretch to summarize (tier 3): from after the first user message up
 * to the last user message. Nothing is ever split from its call or result.
 */
export function planCompaction(frame: RequestFrame, messages: readonly Message[], compaction: Compaction, limits: CompactionLimits): CompactionPlan | undefined {
  const tokensBefore = estimateRequestTokens(frame, compactedView(messages, compaction));
  if (tokensBefore <= limits.window * limits.compactAt) return undefined;
  const goal = limits.window * limits.target;
  const cleared: Record<string, string> = { ...compaction.cleared };
  const tiers: CompactionTier[] = [];
  let tokens = tokensBefore;
  const clear = (candidate: Candidate, marker: string, tier: CompactionTier): void => {
    const saved = estimateTextTokens(candidate.part.output) - estimateTextTokens(marker);
    if (saved <= 0) return;
    cleared[candidate.part.toolCallId] = marker;
    tokens -= saved;
    if (!tiers.includes(tier)) tiers.push(tier);
  };
  const summarizedThrough = compaction.summary?.through ?? 0;
  const results = toolResults(messages, compaction, limits.keepRecent, summarizedThrough);
  // Tier 1: a result that the latest call of the same tool with the same arguments returned again.
  const latest = new Map<string, Candidate>();
  for (const result of [...results].reverse()) {
    const later = latest.get(result.key);
    if (!later) latest.set(result.key, result);
    else if (result.clearable && later.part.output === result.part.output && later.part.isError === result.part.isError) clear(result, clearedMarker(result.part, later.part.toolCallId), 'drop-repeats');
  }
  // Tier 2: the oldest bodies first.
  for (const result of results) {
    if (tokens <= goal) break;
    if (result.clearable && !Object.hasOwn(cleared, result.part.toolCallId)) clear(result, clearedMarker(result.part), 'clear-results');
  }
  const collapsed = tiers.length === 0 ? cleared : collapseMarkers(messages, cleared, summarizedThrough);
  const next: Compaction = { ...compaction, cleared: collapsed, count: compaction.count + 1 };
  if (tiers.length > 0) tokens = estimateRequestTokens(frame, compactedView(messages, next));
  const plan = { compaction: next, tiers, tokensBefore, tokensAfter: tokens };
  if (tokens <= goal) return plan;
  const through = summaryEnd(messages, summarizedThrough, limits.keepRecent);
  if (through === undefined || stretchTokens(messages, next, through) <= (limits.summaryTokens ?? 0)) return plan;
  return { ...plan, summarize: { through } };
}

/** Tokens of what a summary ending at `through` would replace, as it is sent under `compaction` (an earlier summary included). */
function stretchTokens(messages: readonly Message[], compaction: Compaction, through: number): number {
  const sent = compactedView(messages.slice(0, through), compaction);
  return estimateRequestTokens({}, sent.slice(firstUserIndex(sent) + 1));
}

/** Whether a summary may end just before `index`: a message that begins a turn, never between a tool call and its result. */
function beginsTurn(messages: readonly Message[], index: number): boolean {
  const message = messages[index];
  const before = messages[index - 1];
  if (message === undefined || message.role === 'tool') return false;
  return !(before?.role === 'assistant' && before.content.some((part) => part.type === 'tool-call'));
}

/**
 * Where a summary may end (the first message it keeps): the last user message after the first
 * one, or, when the turns since it hold more than `keepRecent` tool results (one long user turn),
 * the turn holding the `keepRecent`-th latest result (at least the latest): older tool turns are
 * summarized whole, call and result together. Always after an earlier summary's end, and after
 * the first user message and one message more; undefined when there is no such stretch.
 */
export function summaryEnd(messages: readonly Message[], after: number, keepRecent: number): number | undefined {
  const first = firstUserIndex(messages);
  const lastUser = messages.map((message) => message.role).lastIndexOf('user');
  let keepFrom = lastUser > first ? lastUser : first + 1;
  const toolTurns: number[] = [];
  for (let index = keepFrom + 1; index < messages.length; index++) if ((messages[index] as Message).role === 'tool') toolTurns.push(index);
  let results = 0;
  const keep = Math.max(1, Math.floor(keepRecent));
  for (let turn = toolTurns.length - 1; turn > 0; turn--) {
    const index = toolTurns[turn] as number;
    results += (messages[index] as ToolMessage).content.length;
    if (results >= keep) {
      // Older tool turns follow the user message: the latest ones are kept, those before summarized.
      keepFrom = index - 1;
      break;
    }
  }
  for (let index = keepFrom; index > Math.max(first + 1, after); index--) if (beginsTurn(messages, index)) return index;
  return undefined;
}
