import type { AgentBuilder } from '../agent/agent';
import type { AgentEventName, AgentEvents } from '../events/agent-events';

/** Test helper (not exported): records every payload of the named events of an agent. */
export function recorder(...names: AgentEventName[]) {
  const seen = new Map<AgentEventName, unknown[]>();
  return {
    of: <E extends AgentEventName>(name: E) => (seen.get(name) ?? []) as AgentEvents[E][],
    attach: <T>(builder: AgentBuilder<T>): AgentBuilder<T> =>
      names.reduce(
        (current, name) =>
          current.on(name, (payload) => {
            seen.set(name, [...(seen.get(name) ?? []), payload]);
          }),
        builder,
      ),
  };
}
