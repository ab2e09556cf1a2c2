/** Rules known to match only failed attempts (never `errorKind: 'ok'`): the library's own. */
const failureOnly = new WeakSet<object>();

/** Rules known to match only a turn that repeats the run's earlier steps: never before a step has finished. */
const loopsOnly = new WeakSet<object>();

/** The marked rules, read by the policy to accept a success no rule can act on without calling any. */
export const markedRules: { readonly failureOnly: Pick<WeakSet<object>, 'has'>; readonly loopsOnly: Pick<WeakSet<object>, 'has'> } = { failureOnly, loopsOnly };

/** Marks library rules that never match a successful attempt, so accepting one needs no rule call. */
export function matchesFailuresOnly<T extends object>(rule: T): T {
  failureOnly.add(rule);
  return rule;
}

/** Marks library rules that match only a turn repeating finished steps (the action-loop rules). */
export function matchesLoopsOnly<T extends object>(rule: T): T {
  loopsOnly.add(rule);
  return rule;
}
