import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { AgentEventName } from './agent-events';
import { AGENT_EVENT_NAMES } from './event-names';

const KNOWN: ReadonlySet<string> = new Set(AGENT_EVENT_NAMES);

/** Edit distance between two short names (insertions, deletions, substitutions). */
function distance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      current.push(Math.min((previous[column] as number) + 1, (current[column - 1] as number) + 1, (previous[column - 1] as number) + cost));
    }
    previous = current;
  }
  return previous[right.length] as number;
}

/** The known event name closest to `name` (pre-1.0 spellings such as `reliability.fail_fast` included). */
function closest(name: string): AgentEventName {
  const wanted = name.toLowerCase().replaceAll('_', '-');
  let best = AGENT_EVENT_NAMES[0] as AgentEventName;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const known of AGENT_EVENT_NAMES) {
    const score = distance(wanted, known);
    if (score < bestDistance) {
      best = known;
      bestDistance = score;
    }
  }
  return best;
}

/**
 * Refuses a listener that could never fire or would fail on every event: an unknown event name
 * (a typo, a name from before 1.0), naming the closest known one, and a listener that is not a
 * function.
 * @throws {AgentConfigurationError} with setting `on:<name>`.
 */
export function checkListener(event: unknown, listener: unknown): void {
  const name = typeof event === 'string' ? event : String(event);
  if (typeof event !== 'string' || !KNOWN.has(event)) {
    throw new AgentConfigurationError({ setting: `on:${name}`, message: `there is no event named ${JSON.stringify(name)}; did you mean '${closest(name)}'? (every name: docs/events.md)` });
  }
  if (typeof listener !== 'function') {
    throw new AgentConfigurationError({ setting: `on:${name}`, message: `the listener must be a function, got ${listener === null ? 'null' : typeof listener}` });
  }
}
