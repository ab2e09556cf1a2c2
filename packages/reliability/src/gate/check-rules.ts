import type { RuleDecision } from './rule';

/** Decisions a rule may name, for checks at build time. */
const DECISIONS: ReadonlySet<unknown> = new Set<RuleDecision>(['continue', 'accept', 'retry', 'retry-other', 'fallback', 'fail-fast']);

/**
 * Why `rule` cannot run, or `undefined`: it must be an object with a `when` function and a known
 * decision (`continue` or `fail-fast` only, for a PreCheck rule). A rule deciding something else
 * would leave the gate without a next step.
 */
export function ruleProblem(rule: unknown, phase: 'pre-check' | 'post-decide'): string | undefined {
  if (typeof rule !== 'object' || rule === null) return `a rule is ${rule === null ? 'null' : typeof rule}, not a rule`;
  const { when, then, kind } = rule as { when?: unknown; then?: unknown; kind?: unknown };
  const name = typeof kind === 'string' ? `rule "${kind}"` : 'a rule';
  if (typeof when !== 'function') return `${name} has no when function`;
  if (!DECISIONS.has(then)) return `${name} decides ${typeof then === 'string' ? `"${then}"` : typeof then}, which is not a decision`;
  if (phase === 'pre-check' && then !== 'continue' && then !== 'fail-fast') return `PreCheck ${name} decides "${String(then)}"; PreCheck rules may only continue or fail-fast`;
  return undefined;
}

/** @throws {TypeError} for the first rule that is not one (see {@link ruleProblem}). */
export function checkRules(preCheck: readonly unknown[], postDecide: readonly unknown[]): void {
  for (const [list, phase] of [[preCheck, 'pre-check'], [postDecide, 'post-decide']] as const) {
    for (const rule of list) {
      const problem = ruleProblem(rule, phase);
      if (problem) throw new TypeError(problem);
    }
  }
}
