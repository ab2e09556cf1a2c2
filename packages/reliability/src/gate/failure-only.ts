/** Rules known to match only failed attempts (never `errorKind: 'ok'`): the library's own. */
const failureOnly = new WeakSet<object>();

/** Rules known to match only a turn that repeats the run's earlier steps: never before a step has finished. */
const loopsOnly = new WeakSet<object>();

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

/** Per rule list: whether a successful attempt is accepted without calling any rule, first without finished steps, then with. */
const okWithoutRules = new WeakMap<readonly object[], { readonly beforeSteps: boolean; readonly always: boolean }>();

/**
 * True when no rule of `rules` can match this successful attempt: every one is a library rule that
 * matches failures only, or one that matches loops only while the run has no finished step.
 */
export function acceptsOkWithoutRules(rules: readonly object[], finishedSteps: number): boolean {
  let known = okWithoutRules.get(rules);
  if (known === undefined) {
    known = { always: rules.every((rule) => failureOnly.has(rule)), beforeSteps: rules.every((rule) => failureOnly.has(rule) || loopsOnly.has(rule)) };
    okWithoutRules.set(rules, known);
  }
  return known.always || (finishedSteps === 0 && known.beforeSteps);
}
