// @keel/ai-sdk from its tarball next to @ai-sdk/google, as its README installs them: an agent with a
// tool and an output schema on Gemini, against a local server speaking Gemini's generateContent
// protocol (a 429 waited out in the gate, a tool argument re-asked with the tool forced, the answer).
import { createServer } from 'node:http';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { Type } from '@sinclair/typebox';
import { ProviderError, fromAISDK } from '@keel/ai-sdk';
import { Agent, tool } from '@keel/core';

const fail = (message) => {
  console.error(`ai-sdk: ${message}`);
  process.exit(1);
};
const usageMetadata = { promptTokenCount: 120, candidatesTokenCount: 10, totalTokenCount: 130, cachedContentTokenCount: 100 };
const reply = (parts) => ({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata });
const script = [
  [429, { error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } }, { 'retry-after': '0.05' }],
  [200, reply([{ functionCall: { name: 'lookup_order', args: { orderId: '1182' } } }])],
  [200, reply([{ functionCall: { name: 'lookup_order', args: { orderId: 'A-1182' } } }])],
  [200, reply([{ text: '{"action":"refund","amount":50}' }])],
  [400, { error: { code: 400, message: 'Invalid JSON payload', status: 'INVALID_ARGUMENT' } }],
];
const bodies = [];
const server = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk) => (text += chunk));
  request.on('end', () => {
    bodies.push(JSON.parse(text));
    const [status, body, headers = {}] = script.shift() ?? [599, { error: { code: 599, message: 'no more replies' } }];
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  const google = createGoogleGenerativeAI({ baseURL: `http://127.0.0.1:${server.address().port}/v1beta`, apiKey: 'local' });
  const lookup = tool({ name: 'lookup_order', description: 'Look up an order', input: Type.Object({ orderId: Type.String({ pattern: '^A-\\d+$' }) }), execute: async () => ({ paid: 50 }) });
  const agent = Agent.create({ provider: fromAISDK(google), model: 'gemini-2.5-flash' })
    .tool(lookup)
    .outputSchema(Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() }))
    .build();
  const result = await agent.run('Order A-1182 arrived broken. Decide.');
  if (result.value?.amount !== 50) fail(`value ${JSON.stringify(result.value)}`);
  const kinds = result.attempts.map((attempt) => attempt.errorKind).join(',');
  if (kinds !== 'rate-limit,ok,ok,ok') fail(`attempts ${kinds}`);
  const forced = bodies[2]?.toolConfig?.functionCallingConfig;
  if (forced?.mode !== 'ANY' || forced.allowedFunctionNames?.[0] !== 'lookup_order') fail(`the re-ask did not force the tool: ${JSON.stringify(forced)}`);
  if (result.usage.cacheReadTokens !== 300) fail(`cache reads ${result.usage.cacheReadTokens}`);
  const refused = await agent.run('Again?').then(() => undefined, (error) => error);
  if (refused?.errorKind !== 'bad-request' || bodies.length !== 5) fail(`a 400: ${refused} after ${bodies.length} requests`);
  script.push([400, { error: { code: 400, message: 'Invalid JSON payload', status: 'INVALID_ARGUMENT' } }]);
  const typed = await fromAISDK(google).generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }, {}).then(() => undefined, (error) => error);
  if (!ProviderError.isInstance(typed) || typed.status !== 400 || typed.retryable) fail(`a 400 from the provider: ${typed}`);
  console.log(`ai-sdk: ok (Gemini via @ai-sdk/google: ${kinds}, the re-ask forced the tool, ${result.usage.cacheReadTokens} cache reads, a 400 failed fast after one request)`);
} finally {
  server.close();
}
