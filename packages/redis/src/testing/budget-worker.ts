/**
 * A fleet worker for the shared-budget test and benchmark: runs `runs` agent runs, `concurrency`
 * at a time, against a zero-latency scripted model whose every call uses 100 tokens, all sharing
 * one budget. Prints one JSON line: calls made, runs completed, runs refused by the budget.
 * Arguments: port key limitTokens runs concurrency
 */
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { ReliabilityFailFastError } from '@keel/reliability';
import { Redis } from 'ioredis';
import { sharedBudget } from '../budget/shared-budget';

const [port, key, limitTokens, runs, concurrency] = process.argv.slice(2);
const redis = new Redis(Number(port), '127.0.0.1');
const budget = sharedBudget({ redis, key: String(key), limit: { tokens: Number(limitTokens) } });
const model = scriptedModel({ text: 'done', usage: { inputTokens: 60, outputTokens: 40 } });
const agent = Agent.create({ provider: model, model: 'zero-latency' })
  .use(budget)
  .build();

let completed = 0;
let refused = 0;
let next = 0;
const started = performance.now();
async function lane(): Promise<void> {
  while (next < Number(runs)) {
    next++;
    try {
      await agent.run('work');
      completed++;
    } catch (error) {
      if (ReliabilityFailFastError.isInstance(error) && error.kind === 'shared-budget') refused++;
      else throw error;
    }
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, lane));
await budget.settled();
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ calls: model.calls, completed, refused, seconds })}\n`);
redis.disconnect();
