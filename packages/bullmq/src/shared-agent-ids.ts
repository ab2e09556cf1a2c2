import { AgentConfigurationError } from '@keel/core';
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

/**
 * Refuses agents of which two have the same id (a declared `id`, or one derived from the same
 * tools and output schema): one could resume the other's suspended states. Read at once, so
 * `createAgentWorker` refuses them before it takes any job.
 * @throws {AgentConfigurationError} (setting `agents`) naming the two agents.
 */
export function refuseSharedIdentities(runners: ReadonlyMap<string, AgentRunner>): void {
  const byKey = new Map<string, string>();
  for (const [name, runner] of runners) {
    const key = runner.identityKey();
    if (key === undefined) continue;
    const other = byKey.get(key);
    if (other !== undefined) {
      const how = key.startsWith('declared:') ? 'they declare the same id' : 'their ids are derived from the same tools and output schema';
      throw new AgentConfigurationError({ setting: 'agents', message: `"${other}" and "${name}" have the same agent id (${how}), so one could resume the other's suspended states; give each its own id (Agent.create({ id }))` });
    }
    byKey.set(key, name);
  }
}
