/**
 * A durable run survives its worker: a refund agent runs on one process, which is killed
 * (SIGKILL) while its email tool is sending; another process recovers the run from its last
 * checkpoint in Redis. The credit (an `idempotent` tool) that finished is not made again, the
 * model is not asked again for the steps it answered, and the email (a `once` tool) is never sent
 * twice: whether it went out is unknown, so the run suspends with it, the outbox is checked by the
 * call's idempotency key, and the run is settled with what happened.
 *
 * Offline on a scripted model; with ANTHROPIC_API_KEY (or OPENAI_API_KEY) set, against the real
 * model. It NEEDS A REDIS SERVER: `redis-server --port 6379 --save '' --appendonly no` (or set REDIS_URL).
 * Run it with: pnpm --filter @keel/examples exec tsx --conditions=@keel/source src/durable-runs.ts
 */
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent, type ModelTarget, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { redisRunStore } from '@keel/redis';
import { Type } from '@sinclair/typebox';
import { Redis } from 'ioredis';
import { providerFromEnv } from './providers/provider-from-env';

/** In production: 32 random bytes from your secret store, the same on every worker. */
const STATE_KEY = 'example-state-key-do-not-use-in-production!';
const QUESTION = 'Order A-1001 arrived broken: refund the $40 and email me when it is done.';

/** The scripted model of the offline run: credit, then email, then the answer. */
function offlineTarget(): ModelTarget {
  const provider = scriptedModel((request) => {
    const done = request.messages.filter((message) => message.role === 'tool').length;
    if (done === 0) return { toolCalls: [{ id: 'credit-1', name: 'credit', arguments: { orderId: 'A-1001', amount: 40 } }] };
    if (done === 1) return { toolCalls: [{ id: 'email-1', name: 'email', arguments: { text: 'Your $40 refund for A-1001 is on its way.' } }] };
    return 'Refunded $40 on A-1001 and emailed you.';
  });
  return { provider, model: 'scripted-demo' };
}

/**
 * The refund agent, durable on Redis. The credit and the email write to Redis as a payment API
 * and a mail service would, each keyed by the call's idempotency key. `onSending` runs while the
 * email is being sent (the worker process is killed there).
 */
export function refundAgent(redis: Redis, target: ModelTarget, onSending: () => Promise<void> = () => Promise.resolve()) {
  const credit = tool({
    name: 'credit',
    description: 'Credits an amount in USD to the customer of an order.',
    input: Type.Object({ orderId: Type.String(), amount: Type.Number({ exclusiveMinimum: 0 }) }),
    // The payment API applies a key once: running the call again is safe.
    effect: 'idempotent',
    execute: async ({ orderId, amount }, context) => {
      await redis.set(`example:credits:${context.idempotencyKey}`, JSON.stringify({ orderId, amount }), 'NX');
      return `credited $${amount} on ${orderId}`;
    },
  });
  const email = tool({
    name: 'email',
    description: 'Emails the customer.',
    input: Type.Object({ text: Type.String() }),
    // The mail service sends every call it gets: never run it again blindly (the default, 'once').
    execute: async ({ text }, context) => {
      await redis.hset('example:outbox', context.idempotencyKey, text);
      await onSending();
      return 'sent';
    },
  });
  return Agent.create({ ...target, id: 'refunds', stateKey: STATE_KEY, maxSteps: 6 })
    .system('You are a support agent. Credit the refund, then email the customer, then answer in one short sentence.')
    .tools([credit, email])
    .durable(redisRunStore({ redis, prefix: 'example:' }))
    .build();
}

const targetFor = (live: boolean): ModelTarget => (live ? (providerFromEnv() ?? offlineTarget()) : offlineTarget());

/** The worker process: runs the agent and never returns from sending the email (it is killed there). */
async function worker(redisUrl: string, runId: string, live: boolean): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const agent = refundAgent(redis, targetFor(live), () => {
    process.stdout.write('sending\n');
    return new Promise(() => undefined);
  });
  await agent.run(QUESTION, { runId });
  process.stdout.write('finished\n');
  redis.disconnect();
}

/** Starts the worker process and kills it (SIGKILL) once it is sending the email; resolves with what it said. */
function runAndKill(redisUrl: string, runId: string, live: boolean): Promise<'killed' | 'finished'> {
  const child = spawn(process.execPath, ['--conditions=@keel/source', '--import', 'tsx', fileURLToPath(import.meta.url), 'worker', redisUrl, runId, String(live)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let said = '';
    child.stdout.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('sending')) child.kill('SIGKILL');
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => (signal === 'SIGKILL' ? resolve('killed') : code === 0 ? resolve('finished') : reject(new Error(`the worker failed (${code})`))));
  });
}

/** One run killed mid-way and recovered on this process. Returns what happened. */
export async function runDurable(redisUrl: string, { live = providerFromEnv() !== undefined, log = console.log }: { live?: boolean; log?: (line: string) => void } = {}) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  try {
    const runId = `refund-${Date.now()}`;
    const ended = await runAndKill(redisUrl, runId, live);
    log(`worker process: ${ended === 'killed' ? 'killed with SIGKILL while sending the email' : 'finished before it could be killed'}`);
    // Another process (this one) goes on from the run's last checkpoint.
    const agent = refundAgent(redis, targetFor(live));
    let result = await agent.recover(runId);
    while (result.status === 'suspended' && result.unknownOutcomes.length > 0) {
      const outcomes: { id: string; result: unknown }[] = [];
      const retry: string[] = [];
      for (const unknown of result.unknownOutcomes) {
        // Ask the system the call writes to: did the key go through?
        const sent = (await redis.hexists('example:outbox', unknown.idempotencyKey)) === 1;
        log(`unknown outcome: ${unknown.toolName} ${JSON.stringify(unknown.arguments)} — the outbox ${sent ? 'has it' : 'does not have it'}`);
        if (sent) outcomes.push({ id: unknown.toolCallId, result: 'sent' });
        else retry.push(unknown.toolCallId);
      }
      result = await agent.resume(result.state, { outcomes, retry });
    }
    const credits = (await redis.keys(`example:credits:${runId}:*`)).length;
    const emails = (await redis.hkeys('example:outbox')).filter((key) => key.startsWith(`${runId}:`)).length;
    log(`${result.status}: ${result.text}`);
    log(`credits made: ${credits}, emails sent: ${emails}, model calls: ${result.usage.modelCalls}`);
    return { ended, status: result.status, text: result.text, credits, emails, modelCalls: result.usage.modelCalls };
  } finally {
    redis.disconnect();
  }
}

const [, , role, ...rest] = process.argv;
if (role === 'worker') await worker(rest[0] as string, rest[1] as string, rest[2] === 'true');
else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await probe.connect();
  } catch {
    console.error(`No Redis at ${url}: start one with  redis-server --port 6379 --save '' --appendonly no`);
    process.exit(1);
  }
  probe.disconnect();
  await runDurable(url);
}
