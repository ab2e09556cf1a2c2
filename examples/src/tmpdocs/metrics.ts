import { Type } from '@sinclair/typebox';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';

const metrics = { modelCalls: 0, retries: 0, toolReasks: 0, validationFailures: 0, costUsd: 0 };

const agent = Agent.create({
  provider: scriptedModel(['{"amount": "USD 50"}', '{"amount": 50}']),
  model: 'scripted-demo',
  pricing: { 'scripted-demo': { inputPerMTok: 3, outputPerMTok: 15 } },
})
  .outputSchema(Type.Object({ amount: Type.Number() }))
  .on('model.response', (event) => {
    metrics.modelCalls++;
    metrics.costUsd += event.costUsd ?? 0;
  })
  .on('validation.failed', () => metrics.validationFailures++)
  .on('reliability.retry', () => metrics.retries++)
  .on('tool.retry', () => metrics.toolReasks++)
  .on('run.end', (event) => console.log(event.status, event.costUsd, metrics))
  .build();

await agent.run('Refund order 1182?');
// ok 0.000621 { modelCalls: 2, retries: 1, toolReasks: 0, validationFailures: 1, costUsd: 0.000621 }
