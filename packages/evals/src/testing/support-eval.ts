/**
 * A 20-item support-triage eval on a scripted model, for the eval tests and the `keel-eval` test.
 * The model's first answers cover what an eval reports: valid at once, a re-ask for a value
 * outside the schema, a lossless repair, a coercion, a wrong but valid answer, a stuck loop, a
 * rate limit. The `changed` variant routes five more tickets wrongly, so its pass rate drops.
 */
import { Agent, type ModelProvider, type ModelRequest } from '@keel/core';
import { scriptedModel, type ScriptedReply } from '@keel/core/test';
import { type Static, Type } from '@sinclair/typebox';
import { cassette, type CassetteMode } from '../cassette/cassette';
import type { EvalDefinition, EvalItem } from '../evaluate/eval-types';

export const Triage = Type.Object({ queue: Type.Union([Type.Literal('billing'), Type.Literal('technical'), Type.Literal('shipping')]), priority: Type.Integer({ minimum: 1, maximum: 3 }) });
export type Triage = Static<typeof Triage>;

const QUEUES = ['billing', 'technical', 'shipping'] as const;
const expectedOf = (ticket: number): Triage => ({ queue: QUEUES[ticket % 3] as Triage['queue'], priority: (ticket % 3) + 1 });

/** The dataset: ticket n's expected queue and priority follow from n. */
export const supportDataset: readonly EvalItem<Triage>[] = Array.from({ length: 20 }, (_, index) => {
  const ticket = index + 1;
  const expected = expectedOf(ticket);
  return { id: `ticket-${ticket}`, input: `Ticket ${ticket}: a customer writes about a ${expected.queue} problem of priority ${expected.priority}.`, expected };
});

const ticketOf = (request: ModelRequest) => Number(/Ticket (\d+)/.exec(String(request.messages[0]?.content))?.[1]);
const reAsked = (request: ModelRequest) => request.messages.some((message) => message.ephemeral);

/** The scripted model behind the eval: its answer for a ticket, by what the request holds and how often the ticket was asked. */
export function supportModel(variant: 'baseline' | 'changed' = 'baseline') {
  const asked = new Map<number, number>();
  return scriptedModel((request): ScriptedReply => {
    const ticket = ticketOf(request);
    const call = (asked.get(ticket) ?? 0) + 1;
    asked.set(ticket, call);
    const right = expectedOf(ticket);
    const answer = (value: unknown) => ({ text: typeof value === 'string' ? value : JSON.stringify(value), usage: { inputTokens: 100 + ticket, outputTokens: 20 } });
    if (variant === 'changed' && ticket >= 10 && ticket <= 14) return answer({ ...right, queue: right.queue === 'billing' ? 'technical' : 'billing' });
    if (ticket === 1 || ticket === 6) return answer(reAsked(request) ? right : { ...right, queue: 'sales' });
    if (ticket === 2) return answer(`{"queue": "${right.queue}", "priority": ${right.priority},}`);
    if (ticket === 3) return answer(`{"queue": "${right.queue}", "priority": "${right.priority}"}`);
    if (ticket === 4) return answer({ ...right, priority: right.priority === 3 ? 1 : 3 });
    if (ticket === 7) return answer({ queue: 'sales', priority: 9 });
    if (ticket === 9 && call === 1) return Object.assign(new Error('429 Too Many Requests'), { errorKind: 'rate-limit' as const, retryAfterMs: 1 });
    return answer(right);
  });
}

/** Dollars per million tokens for the eval's model, so reports carry dollars. */
export const supportPricing = { 'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 } } as const;

/** The triage agent on a provider. */
export function supportAgent(provider: ModelProvider) {
  return Agent.create({ provider, model: 'claude-sonnet-4-6', pricing: supportPricing, maxTokens: 256 })
    .system('Route the support ticket. Answer with the JSON object only: queue (billing, technical or shipping) and priority (1 to 3).')
    .outputSchema(Triage)
    .build();
}

/** Options of {@link supportEval}. */
export interface SupportEvalOptions {
  readonly variant?: 'baseline' | 'changed';
  /** Put a cassette in front of the scripted model. */
  readonly cassette?: { readonly path: string; readonly mode: CassetteMode };
}

/** The eval: the agent, the dataset, exact match (the default scorer). */
export function supportEval(options: SupportEvalOptions = {}): EvalDefinition<Triage, Triage> {
  const model = supportModel(options.variant);
  const provider = options.cassette ? cassette(model, options.cassette) : model;
  return { name: `support-triage-${options.variant ?? 'baseline'}`, agent: supportAgent(provider), dataset: supportDataset, concurrency: 4 };
}
