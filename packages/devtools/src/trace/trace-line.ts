import type { AgentEventName, AgentEvents } from '@keel/core';
import { CONTENT_FIELDS } from './content-fields';

/** One line of a trace file, parsed: the event's name and its payload, as core's `recordTrace` holds them. */
export interface TraceLine {
  readonly event: AgentEventName;
  readonly payload: AgentEvents[AgentEventName];
}

/** The payload without its content fields (the same object when it has none). */
function withoutContent(event: AgentEventName, payload: AgentEvents[AgentEventName]): object {
  const fields = CONTENT_FIELDS[event] as readonly string[] | 'event';
  if (fields === 'event' || fields.length === 0 || !fields.some((field) => field in payload)) return payload;
  const kept: Record<string, unknown> = {};
  for (const key in payload) if (!fields.includes(key)) kept[key] = payload[key as keyof typeof payload];
  return kept;
}

/**
 * The JSON line (with its newline) an event is written as: `{"event":…,"payload":…}`, content
 * fields left out unless `recordContent`. Payloads hold only strings, numbers and booleans, so a
 * line never holds a raw newline: one event, one line.
 */
export function traceLine(event: AgentEventName, payload: AgentEvents[AgentEventName], recordContent: boolean): string {
  const written = recordContent ? payload : withoutContent(event, payload);
  // Event names are Keel's own (letters, dots and dashes): no escaping needed around them.
  return `{"event":"${event}","payload":${JSON.stringify(written)}}\n`;
}
