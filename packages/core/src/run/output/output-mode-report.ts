import { reduceError } from '@keel/reliability/internal';
import type { ModelTarget } from '../../contracts/agent-options';
import type { SchemaRejection } from '@keel/provider';
import type { Downgrade, ModeLevel, TargetPlan } from './output-mode';
import type { RunContext } from '../state/run-context';

/** Plans each run has reported, by target and level: a run reports a plan once. */
const reported = new WeakMap<RunContext, Set<string>>();

/**
 * Reports, once per run and plan, the downgrades a target's start level took (`output.mode-downgraded`)
 * and what lowering changed in the schemas sent to its decoder (`output.schema-lowered`).
 */
export function reportPlan(state: RunContext, index: number, target: ModelTarget, plan: TargetPlan, startDowngrades: readonly Downgrade[]): void {
  if (startDowngrades.length === 0 && plan.outputChanges.length === 0 && plan.toolChanges.length === 0) return;
  let seen = reported.get(state);
  if (seen === undefined) {
    seen = new Set();
    reported.set(state, seen);
  }
  const key = `${index}:${plan.level.mode}:${plan.level.strictTools}`;
  const first = !seen.has(`${index}`);
  if (seen.has(key)) return;
  seen.add(key);
  seen.add(`${index}`);
  const names = { provider: target.provider.name, model: target.model };
  if (first && state.listens('output.mode-downgraded')) for (const downgrade of startDowngrades) state.emit('output.mode-downgraded', { ...names, ...downgrade });
  if (!state.listens('output.schema-lowered')) return;
  if (plan.outputChanges.length > 0) state.emit('output.schema-lowered', { ...names, subject: 'output', changes: plan.outputChanges.join('; ') });
  for (const { tool, changes } of plan.toolChanges) state.emit('output.schema-lowered', { ...names, subject: 'tool', toolName: tool, changes: changes.join('; ') });
}

/** Reports a downgrade after a provider's 400 refused a schema. */
export function reportDowngrade(state: RunContext, target: ModelTarget, from: ModeLevel, to: ModeLevel, thrown: unknown): void {
  if (!state.listens('output.mode-downgraded')) return;
  state.emit('output.mode-downgraded', {
    provider: target.provider.name,
    model: target.model,
    from: from.mode,
    to: to.mode,
    strictTools: to.strictTools,
    reason: 'schema-rejected',
    detail: reduceError(thrown).message,
  });
}

/**
 * Which schema a provider's error says it refused (`schemaRejected` on a `bad-request`, see
 * `ModelCallErrorShape`), read without trusting the error: a getter that throws or any other value
 * reads as none.
 */
export function schemaRejectionOf(error: unknown): SchemaRejection | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  try {
    const value: unknown = (error as { schemaRejected?: unknown }).schemaRejected;
    return value === 'output' || value === 'tool' || value === 'both' ? value : undefined;
  } catch {
    return undefined;
  }
}
