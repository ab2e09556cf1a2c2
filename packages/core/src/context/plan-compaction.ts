import { canonicalJson } from '@keel/reliability/internal';
import type { Message, ToolResultPart } from '../model/message';
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

/** The marker a cleared tool result is sent as. */
export function clearedMarker(part: ToolResultPart, repeatOf?: string): string {
  const size = `${part.output.length} characters`;
  return repeatOf === undefined
    ? `[result cleared to save context: ${part.toolName} (call ${part.toolCallId}), ${size}. Call the tool again if you need it.]`
    : `[result cleared to save context: ${part.toolName} (call ${part.toolCallId}) returned the same ${size} as its later call ${repeatOf}.]`;
}

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
  const next: Compaction = { ...compaction, cleared, count: compaction.count + 1 };
  const plan = { compaction: next, tiers, tokensBefore, tokensAfter: tokens };
  if (tokens <= goal) return plan;
  const through = summaryEnd(messages, summarizedThrough);
  return through === undefined ? plan : { ...plan, summarize: { through } };
}

/** The last user message after the first one (and after any earlier summary): where a summary may end. */
function summaryEnd(messages: readonly Message[], after: number): number | undefined {
  const first = firstUserIndex(messages);
  for (let index = messages.length - 1; index > Math.max(first + 1, after); index--) if ((messages[index] as Message).role === 'user') return index;
  return undefined;
}
