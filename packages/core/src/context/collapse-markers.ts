import type { Message, ToolResultPart } from '@keel/provider';

/** What a repeated read's marker says. */
const REPEAT = ') returned the same ';

/** The marker a cleared tool result is sent as (`repeatOf`: a later call of the same tool and arguments returned the same). */
export function clearedMarker(part: ToolResultPart, repeatOf?: string): string {
  const size = `${part.output.length} characters`;
  return repeatOf === undefined
    ? `[result cleared to save context: ${part.toolName} (call ${part.toolCallId}), ${size}. Call the tool again if you need it.]`
    : `[result cleared to save context: ${part.toolName} (call ${part.toolCallId}${REPEAT}${size} as its later call ${repeatOf}.]`;
}

/** The marker of a run of cleared results: one marker naming every call of the run, on its first result. */
export function collapsedMarker(parts: readonly ToolResultPart[]): string {
  const characters = parts.reduce((sum, part) => sum + part.output.length, 0);
  const names = [...new Set(parts.map((part) => part.toolName))].join(', ');
  return `[results cleared to save context: ${parts.length} calls of ${names} (calls ${parts.map((part) => part.toolCallId).join(', ')}), ${characters} characters in all. Call the tools again if you need them.]`;
}

/** What the other results of a collapsed run are sent as: a pointer to the run's marker. */
export const collapsedPointer = (first: string): string => `[cleared: see call ${first}]`;

/**
 * The cleared markers with each run of consecutive cleared results (from index `from` of the
 * messages on) collapsed: the run's first result carries one marker naming all its calls, the
 * others a pointer to it (a repeated read keeps its marker naming the later call), so markers cost a few tokens a call rather than a sentence each. A
 * result cleared alone keeps its own marker. Pure: the same messages and cleared ids give the
 * same markers, so what is sent changes only when the cleared set does (at a compaction).
 */
export function collapseMarkers(messages: readonly Message[], cleared: Readonly<Record<string, string>>, from: number): Record<string, string> {
  const collapsed: Record<string, string> = {};
  let run: ToolResultPart[] = [];
  const close = (): void => {
    const first = run[0];
    if (first !== undefined && run.length === 1) {
      const own = cleared[first.toolCallId] as string;
      collapsed[first.toolCallId] = own.startsWith('[result cleared') ? own : clearedMarker(first);
    }
    else if (first !== undefined) {
      collapsed[first.toolCallId] = collapsedMarker(run);
      for (const part of run.slice(1)) collapsed[part.toolCallId] = collapsedPointer(first.toolCallId);
    }
    run = [];
  };
  for (let index = Math.max(0, from); index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      const marker = cleared[part.toolCallId];
      if (marker !== undefined && Object.hasOwn(cleared, part.toolCallId) && !marker.includes(REPEAT)) run.push(part);
      else {
        close();
        // A repeated read keeps its own marker: it names the later call that holds the same result.
        if (marker !== undefined && Object.hasOwn(cleared, part.toolCallId)) collapsed[part.toolCallId] = marker;
      }
    }
  }
  close();
  return collapsed;
}
