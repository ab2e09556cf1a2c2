import type { SseEvent } from '@keel/wire-server';

/** Server-sent events of `data:` lines only (as Gemini's `alt=sse` and the Messages API's data are read by the AI SDK). */
export function dataEvents(events: readonly unknown[]): SseEvent[] {
  return events.map((data) => ({ data }));
}
