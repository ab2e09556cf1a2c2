import { pathToFileURL } from 'node:url';
import { Type } from '@sinclair/typebox';
import { Agent, type ModelTarget, RunStateError, type RunResult, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * Tool approval with a resumable run state: a support agent may look orders up freely, but a
 * refund above $50 waits for a person. The run suspends with a signed JSON state; the state is
 * stored (here, as a string), a reviewer decides, and the run resumes from the stored text
 * without asking the model again for that step. An edited state is refused.
 *
 * Offline on a scripted model; with ANTHROPIC_API_KEY (or OPENAI_API_KEY) set, against the real model.
 */

/** In production: 32 random bytes from your secret store, the same on every worker. */
const STATE_KEY = 'example-state-key-do-not-use-in-production!';

const orders: Readonly<Record<string, { readonly total: number; readonly status: string }>> = { 'A-1001': { total: 120, status: 'delivered damaged' } };

/** The support agent, with a ledger of the refunds its tool made. */
export function supportAgent(target: ModelTarget) {
  const refunds: { orderId: string; amount: number }[] = [];
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Looks an order up by its id (e.g. A-1001): total in USD and status.',
    input: Type.Object({ orderId: Type.String() }),
    execute: ({ orderId }) => orders[orderId] ?? `no order ${orderId}`,
  });
  const refund = tool({
    name: 'refund',
    description: 'Refunds an amount in USD on an order. Refunds above $50 wait for a person to approve them.',
    input: Type.Object({ orderId: Type.String(), amount: Type.Number({ exclusiveMinimum: 0 }), reason: Type.String() }),
    // Arguments are validated (and guarded) before this is asked: `amount` is a number here.
    needsApproval: ({ amount }) => amount > 50,
    execute: ({ orderId, amount }) => {
      refunds.push({ orderId, amount });
      return `refunded $${amount} on ${orderId}`;
    },
  });
  const agent = Agent.create({ ...target, stateKey: STATE_KEY, maxSteps: 6 })
    .system('You are a support agent. Look the order up before refunding. Refund damaged orders in full. Answer in one short sentence.')
    .tools([lookupOrder, refund])
    .build();
  return { agent, refunds };
}

/** The scripted model of the offline run: looks up, asks for the refund, then answers from the tool result. */
export function offlineTarget(): ModelTarget {
  const provider = scriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role !== 'tool') return { toolCalls: [{ id: 'lookup-1', name: 'lookup_order', arguments: { orderId: 'A-1001' } }] };
    const result = last.content[0];
    if (result?.toolName === 'lookup_order') return { toolCalls: [{ id: 'refund-1', name: 'refund', arguments: { orderId: 'A-1001', amount: 120, reason: 'delivered damaged' } }] };
    return result?.isError ? `I could not refund order A-1001: ${result.output}` : 'Your order A-1001 has been refunded in full ($120).';
  });
  return { provider, model: 'scripted-demo' };
}

const QUESTION = 'My order A-1001 arrived damaged. I want my money back.';

/** One run through an approval: suspend, store, decide, resume. Returns what happened. */
export async function runApprovals(target: ModelTarget = offlineTarget(), decision: 'approve' | 'reject' = 'approve', log: (line: string) => void = console.log) {
  const { agent, refunds } = supportAgent(target);
  let result: RunResult = await agent.run(QUESTION);
  // A live model may take more than one turn (or none) to ask for the refund.
  const suspensions: number[] = [];
  while (result.status === 'suspended' && result.state) {
    suspensions.push(result.pendingApprovals.length);
    for (const pending of result.pendingApprovals) log(`waiting for approval: ${pending.toolName} ${JSON.stringify(pending.arguments)}`);
    // The state is plain JSON: store it anywhere (a database row, a ticket), hand it to a reviewer.
    const stored = JSON.stringify(result.state);
    log(`stored state: ${stored.length} bytes, ${result.usage.modelCalls} model call(s) so far, nothing refunded yet (${refunds.length} refunds)`);

    // Someone edits the stored amount: refused, nothing runs.
    const edited = JSON.parse(stored.replace(/"amount":\d+/g, '"amount":5000')) as unknown;
    await agent.resume(edited, { approve: result.pendingApprovals.map((pending) => pending.toolCallId) }).catch((error: unknown) => {
      if (!RunStateError.isInstance(error)) throw error;
      log(`edited state refused: ${error.problem}`);
    });

    const ids = result.pendingApprovals.map((pending) => pending.toolCallId);
    const decisions = decision === 'approve' ? { approve: ids } : { reject: ids.map((id) => ({ id, reason: 'refunds above $50 need a receipt photo first' })) };
    log(`reviewer: ${decision}`);
    result = await agent.resume(JSON.parse(stored) as unknown, decisions);
  }
  log(`answer: ${result.text}`);
  log(`refunds made: ${JSON.stringify(refunds)}; ${result.usage.modelCalls} model calls in all`);
  return { text: result.text, refunds, suspensions, modelCalls: result.usage.modelCalls };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = providerFromEnv() ?? offlineTarget();
  await runApprovals(target, 'approve');
  console.log('---');
  await runApprovals(providerFromEnv() ?? offlineTarget(), 'reject');
}
