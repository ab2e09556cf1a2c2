// CommonJS consumer of the packed tarballs: the same checks through require().
const { createServer } = require('node:http');
const { Type } = require('@sinclair/typebox');
const { Agent } = require('@keel/core');
const { scriptedModel } = require('@keel/core/test');
const { MissingSdkError } = require('@keel/providers');
const { anthropic } = require('@keel/providers/anthropic');
const { openai } = require('@keel/providers/openai');

const fail = (message) => {
  console.error(`cjs: ${message}`);
  process.exit(1);
};
const Refund = Type.Object({ amount: Type.Number() });

async function main() {
  const scripted = scriptedModel(['{ "amount": "USD 50" }', '{ "amount": 50 }']);
  const first = await Agent.create({ provider: scripted, model: 'scripted' }).outputSchema(Refund).build().run('Refund?');
  if (first.value?.amount !== 50 || scripted.calls !== 2) fail(`scripted agent: ${JSON.stringify(first.value)} after ${scripted.calls} calls`);

  const completion = { id: 'c1', object: 'chat.completion', created: 0, model: 'local', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{ "amount": 12 }' } }], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const local = openai({ baseURL: `http://127.0.0.1:${server.address().port}/v1`, apiKey: 'local' });
    const second = await Agent.create({ provider: local, model: 'local' }).outputSchema(Refund).build().run('Refund?');
    if (second.value?.amount !== 12) fail(`openai provider: ${JSON.stringify(second.value)}`);
  } finally {
    server.close();
  }

  const missing = await anthropic({ apiKey: 'unused' })
    .generate({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] }, {})
    .then(() => undefined, (error) => error);
  if (!MissingSdkError.isInstance(missing) || missing.sdk !== '@anthropic-ai/sdk') fail(`anthropic without its SDK: ${missing}`);
  console.log(`cjs: ok (scripted agent, openai over a local server, ${missing.name} names ${missing.sdk})`);
}

main().catch((error) => fail(error?.stack ?? String(error)));
