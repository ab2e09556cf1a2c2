/**
 * The agent of the approval tests, made the same way in the test process and in worker processes:
 * a refund tool that needs approval (idempotent per run and tool call, and counting every
 * execution in Redis), memory in Redis, one state key, durable on a Redis run store (an approval
 * is spent once across processes).
 */
import { Agent, type RunStore, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { redisMemory, redisRunStore } from '@keel/redis';
import { Type } from '@sinclair/typebox';
import type { Redis } from 'ioredis';

/** The store, telling `onClaimed` when a suspension was just claimed in it. */
function claimWatched(store: RunStore, onClaimed: (() => void) | undefined): RunStore {
  if (!onClaimed) return store;
  return {
    ...store,
    claim: async (key, ttlMs) => {
      const claimed = await store.claim(key, ttlMs);
      if (claimed && key.startsWith('suspension:')) onClaimed();
      return claimed;
    },
  };
}

export const APPROVAL_STATE_KEY = 'approval-tests-state-key-0123456789abcdef';

/**
 * The agent: it asks for a refund of 40 on A-1, then, with a tool result in front of it, answers
 * after `answerDelayMs`. `onSuspensionClaimed` runs when a resume has just claimed a suspension in
 * the run store, before anything else of the resume (a crash test kills its process there).
 */
export function approvalAgent(redis: Redis, answerDelayMs = 0, onSuspensionClaimed?: () => void) {
  const refund = tool({
    name: 'refund',
    description: 'refunds an order',
    input: Type.Object({ orderId: Type.String(), amount: Type.Number() }),
    needsApproval: true,
    execute: async ({ orderId, amount }, context) => {
      await redis.incr('test:executions');
      // Idempotent: a refund is made once per run and tool call, however often the call runs.
      if (await redis.set(`test:refund:${context.runId}:${context.toolCallId}`, '1', 'NX')) await redis.incrby(`test:refunded:${orderId}`, amount);
      return `refunded ${amount} on ${orderId}`;
    },
  });
  const model = scriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') {
      const output = last.content[0]?.output ?? '';
      return { text: output.startsWith('Error') ? `Not refunded: ${output}` : 'Refunded.', delayMs: answerDelayMs };
    }
    return { toolCalls: [{ id: 'c1', name: 'refund', arguments: { orderId: 'A-1', amount: 40 } }] };
  });
  const agent = Agent.create({ provider: model, model: 'scripted', stateKey: APPROVAL_STATE_KEY })
    .tool(refund)
    .memory(redisMemory({ redis, leaseMs: 1_000 }))
    .durable(claimWatched(redisRunStore({ redis }), onSuspensionClaimed))
    .build();
  return { agent, model };
}
