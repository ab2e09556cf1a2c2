import type { Message } from '@keel/provider';
import { collapseMarkers } from './collapse-markers';
import { type Compaction, compactedView } from './compaction';
import { estimateRequestTokens, type RequestFrame } from './estimate-tokens';

/** Tool call ids whose results are among `messages[0 .. through)`. */
function resultIdsBefore(messages: readonly Message[], through: number): Set<string> {
  const ids = new Set<string>();
  for (let index = 0; index < Math.min(through, messages.length); index++) {
    const message = messages[index] as Message;
    if (message.role === 'tool') for (const part of message.content) ids.add(part.toolCallId);
  }
  return ids;
}

/**
 * The compaction with a summary of the kept messages up to `through` in place of what they were,
 * when it makes the request smaller than `cleared` alone does, else undefined (a summary longer
 * than what it replaces is never used). Markers of results the summary covers are dropped (the
 * compaction stays small as the run grows), and those after it collapsed again.
 */
export function withSummary(frame: RequestFrame, messages: readonly Message[], cleared: Compaction, text: string, through: number): Compaction | undefined {
  const covered = resultIdsBefore(messages, through);
  const kept: Record<string, string> = {};
  for (const [id, marker] of Object.entries(cleared.cleared)) if (!covered.has(id)) kept[id] = marker;
  const summarized: Compaction = { ...cleared, cleared: collapseMarkers(messages, kept, through), summary: { text, through } };
  const without = estimateRequestTokens(frame, compactedView(messages, cleared));
  return estimateRequestTokens(frame, compactedView(messages, summarized)) < without ? summarized : undefined;
}
