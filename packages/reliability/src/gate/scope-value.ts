import type { ScopeValue } from './rule';
import type { ReliabilityScope } from './scope';

/** Resolves a rule setting that is either a value or a function of the scope. */
export async function resolveValue<T, TResponse>(value: ScopeValue<T, TResponse> | undefined, scope: ReliabilityScope<TResponse>): Promise<T | undefined> {
  return typeof value === 'function' ? await (value as (scope: ReliabilityScope<TResponse>) => T | Promise<T>)(scope) : value;
}
