import { Agent, type AgentBuilder, type Extension, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';

/** An 8 KB page of HTML-like text, quotes included (they are escaped in JSON, as a real page's are). */
export const PAGE = `<p class="row">${'Order A-1182 shipped; the "tracking" page says: in transit. '.repeat(140)}</p>`.slice(0, 8192);

/**
 * An agent whose runs take `steps` steps on a zero-latency scripted model: each but the last calls
 * `fetch_page` (an `effect: 'none'` tool), whose result is {@link PAGE}; the last answers. No
 * compaction (the scripted model declares no context window). The trace tests and the benchmarks
 * of traces and durable runs share it.
 */
export function pageAgent(steps: number): AgentBuilder {
  const provider = scriptedModel((request) => {
    const done = request.messages.filter((message) => message.role === 'tool').length;
    return done < steps - 1 ? { toolCalls: [{ name: 'fetch_page', arguments: { page: done } }] } : 'Order A-1182 is in transit.';
  });
  const fetchPage = tool({ name: 'fetch_page', description: 'Fetches a page of the order history', input: Type.Object({ page: Type.Number() }), effect: 'none', execute: () => PAGE });
  return Agent.create({ provider, model: 'm', id: 'pages', maxSteps: steps }).tool(fetchPage);
}

/** A run of {@link pageAgent} traced by `trace`. Returns the run's id. */
export async function recordPageRun(trace: Extension, steps: number): Promise<string> {
  const result = await pageAgent(steps).use(trace).build().run('Where is order A-1182?');
  if (result.status !== 'complete' || result.steps.length !== steps) throw new Error(`expected ${steps} steps, got ${result.status} after ${result.steps.length}`);
  return result.runId;
}
