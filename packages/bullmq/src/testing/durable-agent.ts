import { Agent, type Message, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { redisMemory, redisRunStore } from '@keel/redis';
import { Type } from '@sinclair/typebox';
import type { Redis } from 'ioredis';

/** The refund each run makes: its order is in the user's message ("refund order 7"). */
const orderOf = (messages: readonly Message[]): string => {
  const first = messages.find((message) => message.role === 'user' && typeof message.content === 'string' && message.content.startsWith('refund order '));
  return typeof first?.content === 'string' ? first.content.slice('refund order '.length) : 'unknown';
};

/** Sets KEYS[1] to ARGV[1] unless it is set, and counts in KEYS[2] each time it was. */
const APPLY_ONCE = "if redis.call('SET', KEYS[1], ARGV[1], 'NX') then redis.call('INCR', KEYS[2]) end return 1";

const pause = (maxMs: number) => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * maxMs)));

/**
 * The durable refunds agent of the crash tests: `credit` (idempotent: it applies its credit once
 * per idempotency key, counting each execution and each application) and `email` (once: each
 * execution counted), a scripted model counting each question per order and step, redisMemory
 * and a redisRunStore. Every operation waits a random few milliseconds, so a kill lands anywhere.
 * Keys: `test:credit-runs:<key>`, `test:credit-applied:<key>`, `test:email:<key>`, `test:asked:<order>:<step>`.
 */
export function durableAgent(redis: Redis, maxPauseMs = 60) {
  const credit = tool({
    name: 'credit',
    description: 'Credits the customer',
    input: Type.Object({ order: Type.String(), amount: Type.Number() }),
    effect: 'idempotent',
    execute: async ({ amount }, context) => {
      await pause(maxPauseMs);
      await redis.incr(`test:credit-runs:${context.idempotencyKey}`);
      // The effect itself, applied once per key as a payment API would (and counted with it, atomically).
      await redis.eval(APPLY_ONCE, 2, `test:credit:${context.idempotencyKey}`, `test:credit-applied:${context.idempotencyKey}`, amount);
      await pause(maxPauseMs);
      return 'credited';
    },
  });
  const email = tool({
    name: 'email',
    description: 'Emails the customer',
    input: Type.Object({ text: Type.String() }),
    execute: async (_input, context) => {
      await pause(maxPauseMs);
      await redis.incr(`test:email:${context.idempotencyKey}`);
      await pause(maxPauseMs);
      return 'sent';
    },
  });
  const model = scriptedModel(async (request) => {
    const order = orderOf(request.messages);
    const results = request.messages.filter((message) => message.role === 'tool').length;
    await redis.incr(`test:asked:${order}:${results}`);
    await pause(maxPauseMs);
    if (results === 0) return { toolCalls: [{ id: 'credit-1', name: 'credit', arguments: { order, amount: 40 } }] };
    if (results === 1) return { toolCalls: [{ id: 'email-1', name: 'email', arguments: { text: `order ${order} refunded` } }] };
    return `Refunded order ${order}.`;
  });
  return Agent.create({ provider: model, model: 'scripted', id: 'refunds', stateKey: 'crash-test-state-key-0123456789abcdef' })
    .tool(credit)
    .tool(email)
    .memory(redisMemory({ redis, leaseMs: 300 }))
    .durable(redisRunStore({ redis }))
    .build();
}
