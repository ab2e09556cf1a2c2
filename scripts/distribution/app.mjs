// ESM consumer of the packed tarballs: a scripted agent with a feedback retry, the OpenAI provider
// against a local server (its SDK installed), the Anthropic provider without its SDK.
import { createServer } from 'node:http';
import { Type } from '@sinclair/typebox';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { MissingSdkError } from '@keel/providers';
import { anthropic } from '@keel/providers/anthropic';
import { openai } from '@keel/providers/openai';

const fail = (message) => {
  console.error(`esm: ${message}`);
  process.exit(1);
};
const Refund = Type.Object({ amount: Type.Number() });

const scripted = scriptedModel(['{ "amount": "USD 50" }', '{ "amount": 50 }']);
const first = await Agent.create({ provider: scripted, model: 'scripted' }).outputSchema(Refund).build().run('Refund?');
if (first.value?.amount !== 50 || scripted.calls !== 2) fail(`scripted agent: ${JSON.stringify(first.value)} after ${scripted.calls} calls`);

const completion = { id: 'c1', object: 'chat.completion', created: 0, model: 'local', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{ "amount": 12 }' } }], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } };
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion)));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
try {
  const local = openai({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'local' });
  const second = await Agent.create({ provider: local, model: 'local' }).outputSchema(Refund).build().run('Refund?');
  if (second.value?.amount !== 12) fail(`openai provider: ${JSON.stringify(second.value)}`);
} finally {
  server.close();
}

const missing = await anthropic({ apiKey: 'unused' })
  .generate({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] }, {})
  .then(() => undefined, (error) => error);
if (!MissingSdkError.isInstance(missing) || missing.sdk !== '@anthropic-ai/sdk') fail(`anthropic without its SDK: ${missing}`);
console.log(`esm: ok (scripted agent, openai over a local server, ${missing.name} names ${missing.sdk})`);
