import type { TokenUsage } from '../usage';
import { raceSignal, rethrowIfAborted } from '../race-signal';
import type { Admission } from './decision';
import type { GateMemory } from './gate-memory';
import { match, ruleError, stop } from './rule-match';
import { scopeOf } from './scope-of';
import { resolveValue } from './scope-value';

const ADMIT: Admission = Object.freeze({ type: 'admit' });

/**
 * The PreCheck rules before attempt `attempt`, from rule `from` on: `admit` when none stops or
 * waits; `wait` when a `continue` rule has a backoff (capped like a Retry-After; the caller waits,
 * reports `reliability.wait`, then asks again from `next`); the stop when one decides `fail-fast`
 * (or throws). Pure: it reports and waits for nothing itself.
 */
export async function preCheck<TResponse>(memory: GateMemory<TResponse>, attempt: number, runUsage: TokenUsage, signal: AbortSignal | undefined, from = 0): Promise<Admission> {
  const list = memory.settings.preCheck;
  if (from >= list.length) return ADMIT;
  const scope = scopeOf(memory, attempt, runUsage, signal);
  for (let next = from; ; ) {
    const found = await match(list, scope, next, signal);
    if (!found) return ADMIT;
    if ('thrown' in found) return ruleError(attempt, scope, found.rule, 'when', found.thrown);
    const { rule, index } = found;
    if (rule.then === 'fail-fast') return stop(attempt, memory.lastKind, { kind: rule.kind, label: rule.label, phase: 'pre-check' });
    if (rule.backoff === undefined) return ADMIT;
    let delayMs = 0;
    try {
      const backoff = await raceSignal(resolveValue(rule.backoff, scope), signal);
      delayMs = typeof backoff === 'number' && Number.isFinite(backoff) ? Math.min(Math.max(0, backoff), memory.settings.maxRetryAfterMs) : 0;
    } catch (thrown) {
      rethrowIfAborted(signal, thrown);
      return ruleError(attempt, scope, rule, 'backoff', thrown);
    }
    if (delayMs > 0) return { type: 'wait', delayMs, next: index + 1, events: [{ type: 'reliability.wait', attempt, rule: rule.kind, delayMs }] };
    next = index + 1;
  }
}
