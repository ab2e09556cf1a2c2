import { pathToFileURL } from 'node:url';
import { Agent, type ModelResponse, type ModelTarget, type ReliabilityRule, type RunResult } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { type Static, Type } from '@sinclair/typebox';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * Rules that judge the answer. A support-triage agent answers with a validated JSON value; a
 * business rule reads that value (`scope.value`, typed) and rejects a refund above the limit
 * with feedback. The re-ask carries the feedback as ephemeral messages (nothing of it is kept),
 * within the output's retry budget and stuck detection, like a schema failure.
 *
 * Run it: `pnpm tsx --conditions=@keel/source src/business-rules.ts` (offline, scripted), or with
 * ANTHROPIC_API_KEY set, against the real API.
 */

export const Triage = Type.Object({
  summary: Type.String({ minLength: 1 }),
  queue: Type.Union([Type.Literal('billing'), Type.Literal('technical'), Type.Literal('shipping')]),
  refund: Type.Number({ minimum: 0 }),
});
export type Triage = Static<typeof Triage>;

/** The business rule: refunds above 1000 need a manager, so the model must offer at most 1000. */
export const refundLimit: ReliabilityRule<ModelResponse, Triage> = {
  kind: 'refund-limit',
  label: 'refunds above 1000 need a manager',
  then: 'retry',
  when: (scope) => scope.purpose === 'final-answer' && (scope.value?.refund ?? 0) > 1000,
  feedbackForLLM: 'Refunds above 1000 need a manager. Offer at most 1000 and say in the summary that a manager will follow up.',
};

const TICKET = 'Ticket 7: the 4K TV (1,499 EUR) arrived with a cracked screen. The customer wants their money back.';

/** The offline model: its first answer offers the full price; told the rule, it offers 1000. */
export function offlineTarget(): ModelTarget {
  return {
    provider: scriptedModel([
      '{"summary":"TV arrived cracked: full refund","queue":"shipping","refund":1499}',
      '{"summary":"TV arrived cracked: 1000 refunded now, a manager will follow up on the rest","queue":"shipping","refund":1000}',
    ]),
    model: 'claude-sonnet-4-6',
  };
}

/** Runs one ticket, printing what the rule decided, and returns the result. */
export async function runBusinessRules(target: ModelTarget = offlineTarget(), log: (line: string) => void = console.log): Promise<RunResult<Triage>> {
  const agent = Agent.create({ ...target, maxTokens: 512 })
    .system('You triage support tickets. Answer with the JSON object only: summary, queue (billing, technical or shipping), refund in EUR.')
    .outputSchema(Triage)
    .reliability({ postDecide: [refundLimit] })
    .on('validation.failed', (event) => log(`attempt ${event.attempt} rejected (${event.stage}): ${event.message}`))
    .build();
  const result = await agent.run(TICKET);
  // This agent has no tool that needs approval: its runs complete (the narrowing types `value`).
  if (result.status !== 'complete') throw new Error('the run suspended');
  log(`answer: ${JSON.stringify(result.value)}`);
  log(`${result.attempts.length} model calls: ${result.attempts.map((attempt) => attempt.errorKind).join(', ')}; kept messages: ${result.messages.length}`);
  return result;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runBusinessRules(providerFromEnv() ?? offlineTarget());
