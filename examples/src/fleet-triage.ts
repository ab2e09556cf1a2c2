/**
 * A triage agent run as BullMQ jobs, as an app would: the worker side builds the agents, the API
 * side imports only their type, enqueues a ticket, streams the run as it happens and waits for
 * the typed result. Offline (a scripted model) unless ANTHROPIC_API_KEY (or OPENAI_API_KEY) is
 * set, but it NEEDS A REDIS SERVER: `redis-server --port 6379 --save '' --appendonly no` (or set
 * REDIS_URL). Not part of `pnpm demo`. Run it with:
 *   pnpm --filter @keel/examples exec tsx --conditions=@keel/source src/fleet-triage.ts
 */
import { agentQueue, createAgentWorker } from '@keel/bullmq';
import { Agent, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { redisMemory } from '@keel/redis';
import { Type } from '@sinclair/typebox';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { providerFromEnv } from './providers/provider-from-env';

const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
const redis = new Redis({ ...connection, lazyConnect: true });
try {
  await redis.connect();
} catch {
  console.error(`No Redis at ${url.href}: start one with  redis-server --port 6379 --save '' --appendonly no`);
  process.exit(1);
}

// ── Worker side (agents.ts in an app): the agents, by name ────────────────────────────────────
const Triage = Type.Object({
  queue: Type.Union([Type.Literal('billing'), Type.Literal('technical'), Type.Literal('other')]),
  urgent: Type.Boolean(),
  summary: Type.String(),
});
const lookupCustomer = tool({
  name: 'lookup_customer',
  description: 'Looks a customer up by email: plan and open invoices.',
  input: Type.Object({ email: Type.String() }),
  execute: async ({ email }) => ({ email, plan: 'business', openInvoices: 2 }),
});
const live = providerFromEnv();
const target = live ?? {
  provider: scriptedModel([
    { toolCalls: [{ id: 'call-1', name: 'lookup_customer', arguments: { email: 'ana@example.com' } }] },
    { text: '{ "queue": "billing", "urgent": true, "summary": "Charged twice on a business plan with two open invoices." }', delayMs: 200 },
  ]),
  model: 'scripted',
};
const triage = Agent.create(target)
  .system('You triage support tickets. Look the customer up, then answer with the queue, whether it is urgent, and a one-line summary.')
  .tool(lookupCustomer)
  .outputSchema(Triage)
  .memory(redisMemory({ redis, prefix: 'example-triage' }));
export const agents = { triage };
export type Agents = typeof agents;

const worker = createAgentWorker({ connection, queue: 'example-triage', agents, concurrency: 4 });

// ── API side: only the type of the agents map is imported ─────────────────────────────────────
const runs = agentQueue<Agents>(new Queue('example-triage', { connection }));
await runs.queue.obliterate({ force: true });
const job = await runs.enqueue({
  agent: 'triage',
  input: 'From ana@example.com: I was charged twice this month!',
  conversationId: 'ana@example.com',
  stream: true,
  jobOptions: { removeOnComplete: true },
});
console.log(`enqueued job ${job.id}`);
for await (const part of runs.stream(job)) {
  if (part.type === 'attempt-start') console.log(`  attempt ${part.attempt}`);
  else if (part.type === 'tool-call') console.log(`  calls ${part.call.name}`);
  else if (part.type === 'tool-result') console.log(`  ${part.record.toolName} answered`);
  else if (part.type === 'step-end') console.log(`  step ${part.step} ended (${part.finishReason})`);
  else if (part.type === 'failed') console.log(`  failed: ${part.reason}${part.retrying ? ' (retrying)' : ''}`);
}
// The summary is typed by the agent's output schema: no cast. Narrowed on `status`, it has the value.
const summary = await runs.result(job, { timeoutMs: 60_000 });
if (summary.status !== 'complete') throw new Error('the triage run suspended');
const { value, usage } = summary;
console.log(`→ queue ${value.queue}${value.urgent ? ', urgent' : ''}: ${value.summary} (${usage.totalTokens} tokens)`);

await worker.close();
await runs.queue.close();
await runs.close();
redis.disconnect();
