import { Agent, type Extension, type RunResult, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';

/** Text the model writes that would run if the page ever treated model output as markup. */
export const HOSTILE_ANSWER = 'not json <script>window.__pwned = 1</script>';
export const HOSTILE_POLICY = 'Refunds up to 50 USD are allowed <img src=x onerror="window.__pwned = 2">';
/** Priced, so every call has a cost: $3 in and $15 out per million tokens. */
export const PRICING = { 'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 } };
const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens });

/**
 * A support run with every kind of retry the viewer shows: a tool re-ask (the order id as a
 * number), a sub-agent called as a tool (its answer holds markup), then two re-asks of the final
 * answer (not JSON, then a schema failure) before a valid one. Six model calls of the run, one of
 * the sub-agent, all priced. Returns the run's result.
 */
export async function recordReAskRun(trace: Extension): Promise<RunResult<{ action: string; amount: number }>> {
  const policy = Agent.create({ provider: scriptedModel([{ text: HOSTILE_POLICY, usage: usage(300, 20) }]), model: 'claude-sonnet-4-6', pricing: PRICING })
    .system('You answer questions about the refund policy.')
    .use(trace)
    .build();
  const provider = scriptedModel([
    { toolCalls: [{ id: 'lookup-1', name: 'lookup_order', arguments: { orderId: 42 } }], usage: usage(1200, 40) },
    { toolCalls: [{ id: 'lookup-1', name: 'lookup_order', arguments: { orderId: 'A-1' } }], usage: usage(1400, 40) },
    { toolCalls: [{ id: 'policy-1', name: 'policy_check', arguments: { message: 'Can order A-1 (50 USD, damaged) be refunded?' } }], usage: usage(1500, 50) },
    { text: HOSTILE_ANSWER, usage: usage(1700, 30) },
    { text: '{"action":"refund","amount":"lots"}', usage: usage(1900, 30) },
    { text: '{"action":"refund","amount":50}', usage: usage(1900, 30) },
  ]);
  const agent = Agent.create({ provider, model: 'claude-sonnet-4-6', pricing: PRICING })
    .system('You are a support agent. Answer with JSON: action and amount.')
    .tool(tool({ name: 'lookup_order', description: 'Looks an order up', input: Type.Object({ orderId: Type.String() }), execute: ({ orderId }) => ({ orderId, paid: 50, status: 'damaged' }) }))
    .tool(policy.asTool({ name: 'policy_check', description: 'Asks the policy agent' }))
    .outputSchema(Type.Object({ action: Type.String(), amount: Type.Number() }))
    .use(trace)
    .build();
  return agent.run('Order A-1 arrived damaged: refund it.');
}

/**
 * A run that suspends for an approval (a refund above $20) and is resumed, approved: two
 * segments under one run id. Returns the final result.
 */
export async function recordApprovalRun(trace: Extension): Promise<RunResult> {
  const provider = scriptedModel([
    { toolCalls: [{ id: 'refund-1', name: 'refund', arguments: { orderId: 'A-2', amount: 80 } }], usage: usage(900, 30) },
    { text: 'Refunded 80 USD on order A-2.', usage: usage(1000, 12) },
  ]);
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order',
    input: Type.Object({ orderId: Type.String(), amount: Type.Number() }),
    needsApproval: ({ amount }) => amount > 20,
    execute: ({ orderId, amount }) => `refunded ${amount} on ${orderId}`,
  });
  const agent = Agent.create({ provider, model: 'claude-sonnet-4-6', pricing: PRICING, stateKey: 'devtools-test-state-key-0123456789abcdef' }).tool(refund).use(trace).build();
  const suspended = await agent.run('Refund order A-2 (80 USD).');
  if (suspended.status !== 'suspended' || !suspended.state) throw new Error(`expected a suspended run, got ${suspended.status}`);
  return agent.resume(JSON.parse(JSON.stringify(suspended.state)) as unknown, { approve: suspended.pendingApprovals.map((pending) => pending.toolCallId) });
}
