import { pathToFileURL } from 'node:url';
import { Agent, type ModelTarget } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { compareReports, evaluate, exactMatch, llmJudge, scorer, type EvalItem } from '@keel/evals';
import { type Static, Type } from '@sinclair/typebox';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * An eval: a triage agent over six tickets, scored by exact match on the queue, a custom rule and
 * an LLM judge, with Keel's reliability figures (first-pass validity, re-asks, repairs, dollars
 * per valid output). Then a "changed" agent (a worse prompt, offline: a worse script) is compared
 * with it, and the regressions are named, as `keel-eval --baseline` does in CI.
 *
 * Run it: `pnpm tsx --conditions=@keel/source src/evals.ts` (offline, scripted), or with
 * ANTHROPIC_API_KEY set, against the real API.
 */

const Routing = Type.Object({ queue: Type.Union([Type.Literal('billing'), Type.Literal('technical'), Type.Literal('shipping')]), urgent: Type.Boolean() });
type Routing = Static<typeof Routing>;

export const tickets: readonly EvalItem<Routing>[] = [
  { id: 'double-charge', input: 'I was charged twice for my subscription this month.', expected: { queue: 'billing', urgent: false } },
  { id: 'outage', input: 'Your API returns 500 for every request since 9am, production is down!', expected: { queue: 'technical', urgent: true } },
  { id: 'lost-parcel', input: 'My parcel shows delivered but it never arrived.', expected: { queue: 'shipping', urgent: false } },
  { id: 'refund', input: 'Please refund the annual plan I bought by mistake yesterday.', expected: { queue: 'billing', urgent: false } },
  { id: 'login', input: 'Nobody on my team can log in, we have a launch in an hour.', expected: { queue: 'technical', urgent: true } },
  { id: 'address', input: 'Can I change the delivery address of order 5521?', expected: { queue: 'shipping', urgent: false } },
];

const PRICES = { 'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 } };

/** Offline: answers by keywords; its first answer to the outage is malformed (Keel re-asks), its refund answer has a trailing comma (repaired). `changed` gets logins wrong. */
export function offlineTarget(changed = false): ModelTarget {
  const provider = scriptedModel((request) => {
    const ticket = String(request.messages[0]?.content);
    const retry = request.messages.some((message) => message.ephemeral);
    if (ticket.includes('500') && !retry) return '{"queue": "engineering", "urgent": true}';
    if (ticket.includes('refund')) return '{"queue": "billing", "urgent": false,}';
    if (ticket.includes('log in')) return changed ? '{"queue": "billing", "urgent": false}' : '{"queue": "technical", "urgent": true}';
    const queue = /charged|refund/.test(ticket) ? 'billing' : /500|log in/.test(ticket) ? 'technical' : 'shipping';
    return JSON.stringify({ queue, urgent: /down|hour/.test(ticket) });
  });
  return { provider, model: 'claude-sonnet-4-6' };
}

/** The judge: the live model when there is one, else a scripted judge that checks the queue is named. */
function judgeTarget(live: ModelTarget | undefined): ModelTarget {
  if (live) return live;
  const provider = scriptedModel((request) => {
    const asked = String(request.messages[0]?.content);
    const fits = /"queue": "(billing|technical|shipping)"/.test(asked);
    return JSON.stringify({ reason: fits ? 'A known queue.' : 'No known queue.', score: fits ? 1 : 0 });
  });
  return { provider, model: 'claude-haiku-4-5' };
}

const triageAgent = (target: ModelTarget) =>
  // Priced only for the model the table knows: another live model reports no cost rather than $0.
  Agent.create({ ...target, ...(Object.hasOwn(PRICES, target.model) ? { pricing: PRICES } : {}), maxTokens: 256 })
    .system('Route the support ticket. Answer with the JSON object only: queue (billing, technical or shipping) and urgent (true when a customer is blocked right now).')
    .outputSchema(Routing)
    .build();

/** Evaluates the agent, then a changed one, and prints the figures and the regressions. */
export async function runEvals(live: ModelTarget | undefined = undefined, log: (line: string) => void = console.log) {
  const judge = judgeTarget(live);
  const scorers = [
    exactMatch(),
    scorer<Routing, Routing>('urgent-when-blocked', ({ item, value }) => value.urgent === item.expected?.urgent),
    llmJudge({ ...judge, criteria: 'The routing sends the ticket to the team that can solve it.' }),
  ];
  const baseline = await evaluate({ name: 'triage', agent: triageAgent(live ?? offlineTarget()), dataset: tickets, scorers });
  const s = baseline.summary;
  log(`pass rate ${(s.passRate * 100).toFixed(0)}%, first-pass validity ${(s.firstPassValidity * 100).toFixed(0)}%, re-asks per item ${s.reAsksPerItem.toFixed(2)}, repairs ${JSON.stringify(s.repairs)}, ${s.calls} calls, $${s.dollarsPerValidOutput?.toFixed(6)} per valid output`);
  const changed = await evaluate({ name: 'triage-changed', agent: triageAgent(live ?? offlineTarget(true)), dataset: tickets, scorers });
  const comparison = compareReports(changed, baseline);
  log(comparison.ok ? 'no regression' : comparison.regressions.map((regression) => `regression: ${regression.message}`).join('\n'));
  return { baseline, changed, comparison };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runEvals(providerFromEnv());
