import { pathToFileURL } from 'node:url';
import { Type } from '@sinclair/typebox';
import { Agent, type ModelTarget, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * Agents as tools: a dispatcher agent hands each ticket to a triage agent (`triage.asTool()`),
 * whose answer must fit a schema. The triage agent's first answer is invalid; it is re-asked
 * inside the tool call, and the dispatcher only ever sees the validated value. The dispatcher's
 * usage counts the triage agent's calls, failed one included.
 *
 * Offline on scripted models; with ANTHROPIC_API_KEY (or OPENAI_API_KEY) set, against the real model.
 */

const Triage = Type.Object({
  category: Type.Union([Type.Literal('billing'), Type.Literal('bug'), Type.Literal('account')]),
  priority: Type.Union([Type.Literal('low'), Type.Literal('normal'), Type.Literal('urgent')]),
  summary: Type.String({ maxLength: 80 }),
});

/** The two agents: triage (an output schema) as a tool of the dispatcher, and the tickets it opened. */
export function dispatcher(triageTarget: ModelTarget, dispatcherTarget: ModelTarget) {
  const tickets: { queue: string; priority: string; summary: string }[] = [];
  const triage = Agent.create(triageTarget)
    .system('Classify the support message. Reply with JSON only: {"category": "billing"|"bug"|"account", "priority": "low"|"normal"|"urgent", "summary": "<= 80 chars"}.')
    .outputSchema(Triage)
    .build();
  const openTicket = tool({
    name: 'open_ticket',
    description: 'Opens a ticket in a team queue (billing, bug or account) with a priority and a one-line summary.',
    input: Type.Object({ queue: Type.String(), priority: Type.String(), summary: Type.String() }),
    execute: (ticket) => {
      tickets.push(ticket);
      return `ticket #${tickets.length} opened in ${ticket.queue}`;
    },
  });
  const agent = Agent.create({ ...dispatcherTarget, maxSteps: 6 })
    .system('You dispatch support messages: call triage with the message, open a ticket from its answer, then tell the customer in one sentence.')
    .tool(triage.asTool({ name: 'triage', description: 'Classifies a support message: category, priority and a one-line summary.' }))
    .tool(openTicket)
    .build();
  return { agent, tickets };
}

const MESSAGE = 'I was charged twice for my subscription this month and my bank account is now overdrawn!';

/** Scripted models: triage answers with a category the schema does not allow, then a valid one. */
export function offlineTargets(): { triage: ModelTarget; dispatcher: ModelTarget } {
  const triage = scriptedModel([
    '{"category": "payments", "priority": "urgent", "summary": "Charged twice; account overdrawn"}',
    '{"category": "billing", "priority": "urgent", "summary": "Charged twice; account overdrawn"}',
  ]);
  const dispatcherModel = scriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role !== 'tool') return { toolCalls: [{ id: 't1', name: 'triage', arguments: { message: MESSAGE } }] };
    const result = last.content[0];
    if (result?.toolName === 'triage') {
      const verdict = JSON.parse(result.output) as { category: string; priority: string; summary: string };
      return { toolCalls: [{ id: 't2', name: 'open_ticket', arguments: { queue: verdict.category, priority: verdict.priority, summary: verdict.summary } }] };
    }
    return 'Sorry about the double charge: our billing team has your ticket as urgent and will refund the duplicate.';
  });
  return { triage: { provider: triage, model: 'scripted-triage' }, dispatcher: { provider: dispatcherModel, model: 'scripted-dispatcher' } };
}

/** Dispatches one message; returns the tickets and the usage the dispatcher counted. */
export async function runDispatch(targets = offlineTargets(), log: (line: string) => void = console.log) {
  const { agent, tickets } = dispatcher(targets.triage, targets.dispatcher);
  const result = await agent.run(MESSAGE);
  for (const call of result.toolCalls) log(`${call.toolName} → ${call.output}`);
  log(`answer: ${result.text}`);
  log(`model calls counted by the dispatcher: ${result.usage.modelCalls} (${result.attempts.map((attempt) => attempt.status).join(', ')}), ${result.usage.totalTokens} tokens`);
  return { tickets, modelCalls: result.usage.modelCalls, statuses: result.attempts.map((attempt) => attempt.status), text: result.text };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const live = providerFromEnv();
  await runDispatch(live ? { triage: live, dispatcher: live } : offlineTargets());
}
