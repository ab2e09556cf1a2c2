import { z } from '/work/main/packages/reliability/node_modules/zod/index.js';
import { Agent, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
const search = tool({
  name: 'search',
  description: 'Search the docs',
  input: z.object({ query: z.string().min(1), limit: z.number().int().max(20).optional() }),
  execute: async ({ query, limit }) => `results for ${query} (${limit ?? 5})`,
});
console.log(JSON.stringify(search.specification));
const even = tool({
  name: 'even',
  description: 'Takes an even number',
  input: { parse: (v: unknown) => { const n = (v as { n?: unknown })?.n; if (typeof n !== 'number' || n % 2) throw new Error('n must be an even number'); return { n }; }, jsonSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
  execute: ({ n }) => n / 2,
});
const r = await Agent.create({ provider: scriptedModel([{ toolCalls: [{ name: 'even', arguments: { n: 3 } }, { name: 'search', arguments: { query: '' } }] }, { toolCalls: [{ name: 'even', arguments: { n: 4 } }] }, { toolCalls: [{ name: 'search', arguments: { query: 'gate' } }] }, 'done']), model: 'm' })
  .tools([even, search]).on('tool.retry', (e) => console.log(e.feedback)).build().run('go');
console.log(JSON.stringify(r.toolCalls.map((c) => c.output)));
const Decision = z.object({ action: z.enum(['refund', 'reject']), amount: z.number() });
const a = Agent.create({ provider: scriptedModel(['{"action":"refund","amount":5}']), model: 'm' }).outputSchema(Decision).build();
const v = await a.runTyped('x');
console.log(v.action, v.amount);
