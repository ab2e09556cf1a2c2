import type { ModelTarget } from '../../contracts/agent-options';
import type { SchemaRejection } from '@keel/provider';
import {
  type Downgrade,
  levelAfterRejection,
  lowerLevel,
  type ModeLevel,
  type OutputShape,
  planFor,
  startLevel,
  type StrictToolsOption,
  type TargetPlan,
  type ToolShape,
} from './output-mode';

interface TargetEntry {
  readonly start: ModeLevel;
  /** Downgrades taken to reach the start level (reported by every run that uses the target). */
  readonly startDowngrades: readonly Downgrade[];
  /** The level a provider's 400 brought the target down to, shared by every later run. */
  rejected: ModeLevel | undefined;
  readonly plans: Map<string, TargetPlan>;
}

/** What a target uses now: see {@link OutputModeCache.now}. */
export interface CurrentMode {
  readonly level: ModeLevel;
  readonly plan: TargetPlan;
  readonly startDowngrades: readonly Downgrade[];
}

/**
 * The output modes of one agent (one built configuration, hence one output schema): each target's
 * level and the plan of its requests at that level. A 400 that refuses a schema lowers the
 * target's level here, so the next run goes straight to the lower mode instead of paying the 400
 * again. Levels only go down: two runs refused at once both recover, and neither raises the level
 * the other reached.
 */
export class OutputModeCache {
  private readonly entries = new Map<number, TargetEntry>();

  constructor(
    private readonly targets: readonly ModelTarget[],
    private readonly output: OutputShape | undefined,
    private readonly tools: readonly ToolShape[],
    private readonly strictTools: StrictToolsOption,
  ) {}

  private entry(index: number): TargetEntry {
    let entry = this.entries.get(index);
    if (entry === undefined) {
      const target = this.targets[index] ?? (this.targets[0] as ModelTarget);
      const { level, downgrades } = startLevel(target, this.output);
      entry = { start: level, startDowngrades: downgrades, rejected: undefined, plans: new Map() };
      this.entries.set(index, entry);
    }
    return entry;
  }

  /**
   * What each target uses now, once resolved: its level, the plan at that level, and the
   * downgrades its start level took (for the run to report). An attempt reads it without a call;
   * a rejection clears the target's entry until it is resolved again.
   */
  readonly now: (CurrentMode | undefined)[] = [];

  /** Resolves (and keeps in {@link now}) what target `index` uses now. */
  resolve(index: number): CurrentMode {
    const entry = this.entry(index);
    const level = entry.rejected ?? entry.start;
    const current = { level, plan: this.plan(index, level), startDowngrades: entry.startDowngrades };
    this.now[index] = current;
    return current;
  }

  /** What target `index`'s requests carry at `level` (computed once per level). */
  plan(index: number, level: ModeLevel): TargetPlan {
    const entry = this.entry(index);
    const key = `${level.mode}:${level.strictTools}`;
    let plan = entry.plans.get(key);
    if (plan === undefined) {
      plan = planFor(this.targets[index] ?? (this.targets[0] as ModelTarget), this.output, this.tools, this.strictTools, level);
      entry.plans.set(key, plan);
    }
    return plan;
  }

  /**
   * Records that target `index` refused, with a 400, the `rejected` schema of a request sent at
   * `used`. Returns the level to retry at (lower than `used`, and at or below any level another
   * run reached meanwhile), or `undefined` when nothing can go down.
   */
  reject(index: number, used: ModeLevel, rejected: SchemaRejection): ModeLevel | undefined {
    const next = levelAfterRejection(used, rejected, this.output);
    if (next === undefined) return undefined;
    const entry = this.entry(index);
    const merged = entry.rejected === undefined ? next : lowerLevel(entry.rejected, next);
    entry.rejected = merged;
    this.now[index] = undefined;
    return merged;
  }
}
