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

/** The loop the scope's turn would go round, for a step's call judged after it answered. */
export function actionLoopOf(scope: ReliabilityScope<unknown>, thresholds: ActionLoopThresholds = {}): ActionLoop | undefined {
  if (scope.phase !== 'post-decide' || scope.purpose === 'tool-arguments' || !scope.run) return undefined;
  return detectActionLoop(scope.run, thresholds);
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
 * Rules that stop loops of actions across a run (they read `scope.run`): the same call with the
 * same arguments and the same result again and again, the same failing call, calls in turn whose
 * results never change, the same reply. The first rule sends ephemeral feedback that names the
 * loop and what was already returned (up to `nudges` times in a run); if the model goes round a
 * loop again, at once or after trying something else, the second stops the run with kind `action-loop`. Changing results or arguments are
 * progress. Both are among the default rules; list them yourself to change the thresholds.
 */
export function actionLoopRules<TResponse = unknown>(options: ActionLoopOptions = {}): readonly [ReliabilityRule<TResponse>, ReliabilityRule<TResponse>] {
  const nudges = options.nudges !== undefined && Number.isInteger(options.nudges) && options.nudges >= 0 ? options.nudges : 1;
  const minSteps = stepsForLoop(options);
  const stopRule: ReliabilityRule<TResponse> = matchesLoopsOnly({
    kind: ACTION_LOOP_KIND,
    label: 'the run kept going round the same actions',
    then: 'fail-fast',
    when: (scope) => nudgesSent(scope) >= nudges && actionLoopOf(scope, options) !== undefined,
  }, minSteps);
  const nudgeRule: ReliabilityRule<TResponse> = matchesLoopsOnly({
    kind: ACTION_LOOP_KIND,
    label: 'the turn repeats actions that returned nothing new',
    then: 'retry',
    when: (scope) => nudgesSent(scope) < nudges && actionLoopOf(scope, options) !== undefined,
    feedbackForLLM: ({ scope }) => {
      const loop = actionLoopOf(scope, options);
      return loop ? actionLoopFeedback(loop) : '';
    },
  }, minSteps);
  return [stopRule, nudgeRule];
}
