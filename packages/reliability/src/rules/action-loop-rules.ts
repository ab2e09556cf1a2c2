import { quote } from '../feedback/quote';
import { matchesLoopsOnly } from '../gate/failure-only';
import type { ReliabilityRule } from '../gate/rule';
import type { ReliabilityScope } from '../gate/scope';
import { type ActionLoop, type ActionLoopThresholds, detectActionLoop, stepsForLoop } from '../loops/detect-action-loop';

/** Settings of {@link actionLoopRules}. */
export interface ActionLoopOptions extends ActionLoopThresholds {
  /** Times the model is told about a loop (ephemeral feedback) in a run before a loop stops the run. Default 1. */
  readonly nudges?: number;
}

/** The rule kind both action-loop rules report, in events and in the error that stops the run. */
export const ACTION_LOOP_KIND = 'action-loop';

/** The thresholds of each rule {@link actionLoopRules} made, so a report of its decision finds the loop it found. */
const thresholdsOfRule = new WeakMap<object, ActionLoopThresholds>();

/** The loop the scope's turn would go round, for a step's call judged after it answered. */
export function actionLoopOf(scope: ReliabilityScope<unknown>, thresholds: ActionLoopThresholds = {}): ActionLoop | undefined {
  if (scope.phase !== 'post-decide' || scope.purpose === 'tool-re-ask' || !scope.run) return undefined;
  return detectActionLoop(scope.run, thresholds);
}

/**
 * The loop `rule` found in the scope's turn: at the thresholds it was made with by
 * {@link actionLoopRules}, at the default ones for any other rule of kind `action-loop`;
 * `undefined` for a rule of another kind.
 */
export function loopOfRule(rule: object & { readonly kind: string }, scope: ReliabilityScope<unknown>): ActionLoop | undefined {
  if (rule.kind !== ACTION_LOOP_KIND) return undefined;
  return actionLoopOf(scope, thresholdsOfRule.get(rule) ?? {});
}

/**
 * True when `rules` has a loop rule of its own (a rule of kind `action-loop`, as
 * {@link actionLoopRules} makes): the default loop rules are then left out, one loop rule set per
 * agent, so the thresholds listed are the ones in force.
 */
export function hasActionLoopRules(rules: readonly { readonly kind?: unknown }[]): boolean {
  return rules.some((rule) => typeof rule === 'object' && rule !== null && rule.kind === ACTION_LOOP_KIND);
}

/**
 * The fewest finished steps before any loop rule among `rules` can judge a turn a loop (at the
 * thresholds each was made with), or `undefined` when `rules` has none: before that step, no turn
 * of the run can be rejected as a loop, so a stream may show its text as it comes.
 */
export function loopRulesMinSteps(rules: readonly { readonly kind?: unknown }[]): number | undefined {
  let fewest: number | undefined;
  for (const rule of rules) {
    if (typeof rule !== 'object' || rule === null || rule.kind !== ACTION_LOOP_KIND) continue;
    const steps = stepsForLoop(thresholdsOfRule.get(rule) ?? {});
    fewest = fewest === undefined ? steps : Math.min(fewest, steps);
  }
  return fewest;
}

/**
 * Nudges already sent in this run: `scope.run.loopNudges` (every step), or, where the run does not
 * count them, this step's rejections by an action-loop rule, read from the failure signatures. A
 * model that answers a nudge with one other call and then goes back round the loop is stopped,
 * not nudged again at every return.
 */
function nudgesSent(scope: ReliabilityScope<unknown>): number {
  let sent = 0;
  for (const signature of scope.validationErrorHistory) if (signature.startsWith('rule-check|') && signature.includes(`|${ACTION_LOOP_KIND}|`)) sent++;
  return Math.max(sent, scope.run?.loopNudges ?? 0);
}

const names = (loop: ActionLoop): string => [...new Set(loop.calls.map((call) => `\`${call.name}\``))].join(' and ');

/** The feedback that names the loop and what the run already got back, the results quoted as data. */
function actionLoopFeedback(loop: ActionLoop): string {
  const results = loop.calls.map((call) => `${call.name}: ${quote(call.resultPreview)}`).join('; ');
  switch (loop.type) {
    case 'repeated-call':
      return `You called ${names(loop)} with these same arguments ${loop.rounds} times and got the same result each time (${results}). Calling it again will not return anything new: use what it returned, try something different, or give your answer.`;
    case 'same-error':
      return `You called ${names(loop)} with these same arguments ${loop.rounds} times and it failed the same way each time (${results}). Calling it again will fail again: change the arguments, try another tool, or give your answer.`;
    case 'alternation':
      return `You called ${names(loop)} in turn ${loop.rounds} times and their results did not change (${results}). Going round again will not return anything new: use what you have, try something different, or give your answer.`;
    case 'repeated-reply':
      return `You gave this same reply ${loop.rounds} times. Repeating it does not move the task on: answer differently, or use a tool to find what is missing.`;
  }
}

/**
 * What looped, for the error that stops the run: the pattern, the tools by name and the rounds
 * (the results are left out: an error message is logged where tool data may not belong).
 */
export function describeActionLoop(loop: ActionLoop): string {
  switch (loop.type) {
    case 'repeated-call':
      return `the model called ${names(loop)} with the same arguments ${loop.rounds} times in a row, got the same result each time, and asked for it again`;
    case 'same-error':
      return `the model called ${names(loop)} with the same arguments ${loop.rounds} times in a row, it failed the same way each time, and the model asked for it again`;
    case 'alternation':
      return `the model called ${names(loop)} in turn (a round of ${loop.period} steps) ${loop.rounds} times with unchanged results, and started another round`;
    case 'repeated-reply':
      return `the model gave the same reply ${loop.rounds} times in a row, and gave it again`;
  }
}

/**
 * Rules that stop loops of actions across a run (they read `scope.run`): the same call with the
 * same arguments and the same result again and again, the same failing call, calls in turn whose
 * results never change, the same reply. The first rule sends ephemeral feedback that names the
 * loop and what was already returned (up to `nudges` times in a run); if the model goes round a
 * loop again, at once or after trying something else, the second stops the run with kind and
 * error kind `action-loop`. Changing results or arguments, and polling (a check that reports work
 * under way, with a wait or another call between checks), are progress. Both are among the
 * default rules; listing them yourself replaces the defaults' (one loop rule set per agent).
 */
export function actionLoopRules<TResponse = unknown>(options: ActionLoopOptions = {}): readonly [ReliabilityRule<TResponse>, ReliabilityRule<TResponse>] {
  const nudges = options.nudges !== undefined && Number.isInteger(options.nudges) && options.nudges >= 0 ? options.nudges : 1;
  const thresholds: ActionLoopThresholds = Object.freeze({ ...(options.repeats === undefined ? {} : { repeats: options.repeats }), ...(options.cycles === undefined ? {} : { cycles: options.cycles }), ...(options.maxPeriod === undefined ? {} : { maxPeriod: options.maxPeriod }) });
  const minSteps = stepsForLoop(thresholds);
  const stopRule: ReliabilityRule<TResponse> = matchesLoopsOnly({
    kind: ACTION_LOOP_KIND,
    label: 'the run kept going round the same actions',
    then: 'fail-fast',
    when: (scope) => nudgesSent(scope) >= nudges && actionLoopOf(scope, thresholds) !== undefined,
  }, minSteps);
  const nudgeRule: ReliabilityRule<TResponse> = matchesLoopsOnly({
    kind: ACTION_LOOP_KIND,
    label: 'the turn repeats actions that returned nothing new',
    then: 'retry',
    when: (scope) => nudgesSent(scope) < nudges && actionLoopOf(scope, thresholds) !== undefined,
    feedbackForLLM: ({ scope }) => {
      const loop = actionLoopOf(scope, thresholds);
      return loop ? actionLoopFeedback(loop) : '';
    },
  }, minSteps);
  thresholdsOfRule.set(stopRule, thresholds);
  thresholdsOfRule.set(nudgeRule, thresholds);
  return [stopRule, nudgeRule];
}
