import { lastNValidationErrorsMatch, type ReliabilityRule } from '@keel/reliability';
import { isValidationErrorKind, matchesFailuresOnly } from '@keel/reliability/internal';
import type { ModelResponse } from '@keel/provider';
import { stableStringify } from './stable-equal';

/** The kind of the rule that re-asks for corrected tool arguments: `tool.re-ask` events name it. */
export const TOOL_RE_ASK_RULE = 'tool-re-ask';

/** The stop kinds that end a tool call's re-asks with an error result for the model (not a run failure). */
export const TOOL_RE_ASK_OUTCOMES: ReadonlySet<string> = new Set(['redundant', 'exhausted', 'gave-up', 'guard-rejected-on-retry', 'validator-error']);

/** The arguments' text normalised (keys sorted) when it parses, so the same arguments compare equal. */
function normalised(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return stableStringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/**
 * The policy of one logical tool call's re-asks, after the user's rules: stop as `redundant` when
 * a corrected call repeats the previous arguments or the same mistake (see `failureSignature`),
 * re-ask while `budget` re-asks are not used up, then stop as `exhausted`; a reply without a call
 * of the tool is `gave-up`, a guard's refusal of a corrected call `guard-rejected-on-retry`.
 * `firstArguments` is the text of the arguments the step produced.
 */
export function toolArgumentRules(budget: number, firstArguments: string): ReliabilityRule<ModelResponse>[] {
  let previous = normalised(firstArguments);
  // Each matches a failure only: a corrected call that is valid is accepted without them.
  const rules: ReliabilityRule<ModelResponse>[] = [
    {
      kind: 'redundant',
      label: 'the corrected call repeated the same problems',
      then: 'fail-fast',
      when: (scope) => {
        if (!isValidationErrorKind(scope.errorKind)) return false;
        const current = normalised(scope.validationError?.rawOutput);
        const same = current !== undefined && current === previous;
        previous = current;
        return same || lastNValidationErrorsMatch(scope, 2);
      },
    },
    {
      kind: TOOL_RE_ASK_RULE,
      label: `re-ask for corrected arguments (up to ${budget})`,
      then: 'retry',
      when: (scope) => isValidationErrorKind(scope.errorKind) && scope.history.filter((entry) => isValidationErrorKind(entry.errorKind)).length < budget,
    },
    { kind: 'exhausted', label: `still invalid after ${budget} re-asks`, then: 'fail-fast', when: (scope) => isValidationErrorKind(scope.errorKind) },
    { kind: 'gave-up', label: 'the model did not call the tool again', then: 'fail-fast', when: (scope) => scope.errorKind === 'no-tool-call' },
    { kind: 'guard-rejected-on-retry', label: 'a guard refused the corrected call', then: 'fail-fast', when: (scope) => scope.errorKind === 'guard-rejected' },
  ];
  return rules.map(matchesFailuresOnly);
}
