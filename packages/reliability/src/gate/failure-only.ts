/** Rules known to match only failed attempts (never `errorKind: 'ok'`): the library's own. */
const failureOnly = new WeakSet<object>();

/** Marks library rules that never match a successful attempt, so accepting one needs no rule call. */
export function matchesFailuresOnly<T extends object>(rule: T): T {
  failureOnly.add(rule);
  return rule;
}

/** Per rule list: whether a successful attempt is accepted without calling any rule. */
const okWithoutRules = new WeakMap<readonly object[], boolean>();

/** True when no rule of `rules` can match a successful attempt (every one is a library rule that matches failures only). */
export function acceptsOkWithoutRules(rules: readonly object[]): boolean {
  let known = okWithoutRules.get(rules);
  if (known === undefined) {
    known = rules.every((rule) => failureOnly.has(rule));
    okWithoutRules.set(rules, known);
  }
  return known;
}
