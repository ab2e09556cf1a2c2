/**
 * A fleet worker for the shared-backoff test: prints `ready`, waits until the Redis key `go` is
 * set, makes one agent run, and prints when its model was called and the fleet waits it reported.
 * Arguments: port key
 */
import { Agent, type AgentEvents } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Redis } from 'ioredis';
import { sharedBackoff } from '../backoff/shared-backoff';

const [port, key] = process.argv.slice(2);
const redis = new Redis(Number(port), '127.0.0.1');
const backoff = sharedBackoff({ redis, key: String(key) });
let calledAt = 0;
const waits: AgentEvents['reliability.wait'][] = [];
const model = scriptedModel(() => {
  calledAt = Date.now();
  return 'fine';
});
const agent = Agent.create({ provider: model, model: 'm' })
  .use(backoff)
  .on('reliability.wait', (event) => void waits.push(event))
  .build();
process.stdout.write(`${JSON.stringify({ event: 'ready' })}\n`);
while ((await redis.get('go')) === null) await new Promise((resolve) => setTimeout(resolve, 5));
const startedAt = Date.now();
await agent.run('go');
process.stdout.write(`${JSON.stringify({ startedAt, calledAt, waits })}\n`);
redis.disconnect();
