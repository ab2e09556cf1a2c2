import { Agent, type Extension, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';

/** An 8 KB page of HTML-like text, quotes included (they are escaped in JSON, as a real page's are). */
export const PAGE = `<p class="row">${'Order A-1182 shipped; the "tracking" page says: in transit. '.repeat(140)}</p>`.slice(0, 8192);

/**
 * A run of `steps` steps: each but the last calls `fetch_page`, whose result is {@link PAGE}; the
 * last answers. No compaction (the scripted model declares no context window). Returns the run's id.
 */
export async function recordPageRun(trace: Extension, steps: number): Promise<string> {
  const replies = [...Array.from({ length: steps - 1 }, (_, index) => ({ toolCalls: [{ name: 'fetch_page', arguments: { url: `https://shop.example/orders?page=${index}` } }] })), 'Order A-1182 is in transit.'];
  const agent = Agent.create({ provider: scriptedModel(replies), model: 'm', maxSteps: steps })
    .tool(tool({ name: 'fetch_page', description: 'Fetches a page', input: Type.Object({ url: Type.String() }), execute: () => PAGE }))
    .use(trace)
    .build();
  const result = await agent.run('Where is order A-1182?');
  if (result.status !== 'complete' || result.steps.length !== steps) throw new Error(`expected ${steps} steps, got ${result.status} after ${result.steps.length}`);
  return result.runId;
}
