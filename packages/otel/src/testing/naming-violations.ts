import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** Dot-separated lowercase snake_case words: `keel.retry.delay_ms`. */
const DOTTED_SNAKE_CASE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
/** Attributes that mean the same wherever they appear, on spans and span events alike. */
const SHARED = /^(gen_ai\..+|error\.type|keel\.attempt|keel\.step)$/;

/**
 * What breaks the attribute conventions of `@keel/otel` in `spans` (empty when nothing does):
 * names are `gen_ai.*`, `error.type` or `keel.*` in dotted snake_case; a span event is named
 * `keel.*` and its attributes are shared ones or `{event name}.{field}`; and no attribute name is
 * also the namespace of another (`keel.attempt` beside `keel.attempt.reason`), as the OpenTelemetry
 * naming rules ask.
 */
export function namingViolations(spans: readonly ReadableSpan[]): string[] {
  const violations: string[] = [];
  const names = new Set<string>();
  const check = (name: string, where: string) => {
    names.add(name);
    if (!DOTTED_SNAKE_CASE.test(name) || !/^(gen_ai|error|keel)\./.test(name)) violations.push(`${where}: ${name} is not gen_ai.*, error.* or keel.* in dotted snake_case`);
  };
  for (const span of spans) {
    for (const name of Object.keys(span.attributes)) check(name, span.name);
    for (const event of span.events) {
      if (!DOTTED_SNAKE_CASE.test(event.name) || !event.name.startsWith('keel.')) violations.push(`${span.name}: event ${event.name} is not keel.* in dotted snake_case`);
      for (const name of Object.keys(event.attributes ?? {})) {
        check(name, `${span.name} / ${event.name}`);
        if (!SHARED.test(name) && !name.startsWith(`${event.name}.`)) violations.push(`${span.name} / ${event.name}: ${name} is neither shared nor ${event.name}.*`);
      }
    }
  }
  for (const name of names) {
    for (const other of names) if (other.startsWith(`${name}.`)) violations.push(`${name} is an attribute and the namespace of ${other}`);
  }
  return violations;
}
