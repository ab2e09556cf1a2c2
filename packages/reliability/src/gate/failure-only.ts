/** Rules known to match only failed attempts (never `errorKind: 'ok'`): the library's own. */
const failureOnly = new WeakSet<object>();

/** Rules known to match only a turn that repeats the run's earlier steps, with the finished steps such a repeat needs. */
const loopsOnly = new WeakMap<object, number>();

/** The marked rules, read by the policy to accept a success no rule can act on without calling any. */
export const markedRules: { readonly failureOnly: Pick<WeakSet<object>, 'has'>; readonly loopsOnly: Pick<WeakMap<object, number>, 'get'> } = { failureOnly, loopsOnly };

/** Marks library rules that never match a successful attempt, so accepting one needs no rule call. */
export function matchesFailuresOnly<T extends object>(rule: T): T {
  failureOnly.add(rule);
  return rule;
}

/**
 * Marks library rules that match only a turn repeating finished steps (the action-loop rules):
 * never while the run has fewer than `minSteps` finished steps.
 */
export function matchesLoopsOnly<T extends object>(rule: T, minSteps = 1): T {
  loopsOnly.set(rule, minSteps);
  return rule;
}
