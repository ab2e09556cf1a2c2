import type { AgentRunner } from './agent-runner';

/** For each agent name whose agent id another name shares, one such other name. */
export async function sharedAgentIds(runners: ReadonlyMap<string, AgentRunner>): Promise<ReadonlyMap<string, string>> {
  const byId = new Map<string, string[]>();
  for (const [name, runner] of runners) {
    const id = await runner.id();
    byId.set(id, [...(byId.get(id) ?? []), name]);
  }
  const shared = new Map<string, string>();
  for (const names of byId.values()) if (names.length > 1) for (const name of names) shared.set(name, names.find((other) => other !== name) as string);
  return shared;
}
