import type { AgentEventName } from '@keel/core';
import type { Attributes, AttributeValue, Span } from '@opentelemetry/api';

/**
 * The span event name of a core event: `keel.` and the event's name, with the `reliability.`
 * area dropped and hyphens as underscores (`reliability.fail-fast` → `keel.fail_fast`,
 * `tool.re-ask` → `keel.tool.re_ask`).
 */
export function spanEventName(event: AgentEventName): string {
  return `keel.${event.replace(/^reliability\./, '').replaceAll('-', '_')}`;
}

/**
 * Adds the span event of core event `event` to `span`. Its own fields are named
 * `{span event name}.{field}` (fields left `undefined` are omitted); `shared` holds attributes
 * that keep their meaning wherever they appear (`keel.attempt`, `keel.step`, `error.type`,
 * `gen_ai.*`).
 */
export function addSpanEvent(span: Span, event: AgentEventName, fields: Readonly<Record<string, AttributeValue | undefined>>, shared: Attributes = {}): void {
  const name = spanEventName(event);
  const attributes: Attributes = { ...shared };
  for (const [field, value] of Object.entries(fields)) if (value !== undefined) attributes[`${name}.${field}`] = value;
  span.addEvent(name, attributes);
}
