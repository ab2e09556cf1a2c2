import type { AgentBuilder, AgentEventName } from '@keel/core';
import { AGENT_EVENT_NAMES } from '@keel/core/internal';
import { describe, expect, it } from 'vitest';
import { EVENT_HANDLING } from './event-handling';
import { telemetry } from './telemetry';

/** The events an extension listens to, from a stand-in builder that records `on()` calls. */
function listenedTo(recordContent: boolean): AgentEventName[] {
  const names: AgentEventName[] = [];
  const builder = { on: (name: AgentEventName) => (names.push(name), builder), wrapCalls: () => builder };
  telemetry({ recordContent })(builder as unknown as AgentBuilder<unknown>);
  return names.sort();
}

const marked = (...handling: string[]) =>
  Object.entries(EVENT_HANDLING)
    .filter(([, value]) => handling.includes(value))
    .map(([name]) => name)
    .sort();

describe('the events telemetry() records', () => {
  it('classifies every event core emits, and only those', () => {
    expect(Object.keys(EVENT_HANDLING).sort()).toEqual([...AGENT_EVENT_NAMES].sort());
  });

  it('listens to exactly the events marked recorded, and to content events only with recordContent', () => {
    expect(listenedTo(false)).toEqual(marked('recorded'));
    expect(listenedTo(true)).toEqual(marked('recorded', 'content'));
    expect(marked('content')).toEqual(['model.content']);
  });
});
