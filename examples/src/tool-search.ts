import { pathToFileURL } from 'node:url';
import { Type } from '@sinclair/typebox';
import { Agent, type ModelTarget, type Tool, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * A support agent with 122 tools: six back-office systems of 20 tools each, `refund_order` and `lookup_order`.
 * Past `toolSearch.threshold` (30) every tool is deferred: the first request sends only
 * `tool_search` (and `lookup_order`, marked `defer: false`), the model searches for what it needs,
 * and the tools it finds are sent from the next step on. What was loaded is reported as
 * `tools.loaded` and kept in the run's state.
 *
 * Offline on a scripted model; with ANTHROPIC_API_KEY (or OPENAI_API_KEY) set, against the real model.
 */

const SYSTEMS = ['billing', 'crm', 'inventory', 'shipping', 'marketing', 'hr'];
const ACTIONS = ['get', 'list', 'create', 'update', 'archive'];
const OBJECTS = ['record', 'note', 'report', 'task'];

/** The back-office tools: what each does is in its name and description. */
function backOfficeTools(): Tool[] {
  return SYSTEMS.flatMap((system) =>
    ACTIONS.flatMap((action) =>
      OBJECTS.map(
        (object) =>
          tool({
            name: `${system}_${action}_${object}`,
            description: `${action} a ${object} in the ${system} system.`,
            input: Type.Object({ id: Type.String(), workspace: Type.String(), fields: Type.Optional(Type.Array(Type.String())) }),
            effect: 'none',
            execute: () => `${action} ${object}: ok`,
          }) as Tool,
      ),
    ),
  );
}

const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Looks an order up: what was paid and whether it shipped.',
  input: Type.Object({ orderId: Type.String() }),
  effect: 'none',
  defer: false,
  execute: ({ orderId }) => ({ orderId, paid: 50, shipped: false }),
});

const refundOrder = tool({
  name: 'refund_order',
  description: 'Refunds a paid order to the customer.',
  input: Type.Object({ orderId: Type.String(), amount: Type.Number({ exclusiveMinimum: 0 }) }),
  effect: 'idempotent',
  execute: ({ orderId, amount }) => `refunded $${amount} on ${orderId}`,
});

/** The scripted model of the offline run: looks the order up, searches for a refund tool, refunds, answers. */
export function offlineTarget(): ModelTarget {
  const provider = scriptedModel((request) => {
    const done = new Set(request.messages.flatMap((message) => (message.role === 'tool' ? message.content.map((part) => part.toolName) : [])));
    const sent = new Set((request.tools ?? []).map((entry) => entry.name));
    if (done.has('refund_order')) return 'Order A-1 was refunded $50.';
    if (sent.has('refund_order')) return { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A-1', amount: 50 } }] };
    if (done.has('lookup_order')) return { toolCalls: [{ name: 'tool_search', arguments: { query: 'refund an order' } }] };
    return { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-1' } }] };
  });
  return { provider, model: 'scripted-support' };
}

/** The support run: its answer, the tools it loaded, and how many tools each request sent. */
export async function runToolSearch(target: ModelTarget = offlineTarget(), log: (line: string) => void = console.log) {
  const loaded: string[] = [];
  const sentPerStep: number[] = [];
  const agent = Agent.create({ ...target, maxSteps: 8, toolSearch: { threshold: 30 } })
    .system('You are a support agent. Look the order up, then act on it with the tools you find with tool_search.')
    .tools([...backOfficeTools(), refundOrder, lookupOrder])
    .on('model.request', (event) => {
      if (event.purpose === 'step') sentPerStep.push(event.toolCount);
    })
    .on('tools.loaded', (event) => {
      loaded.push(...event.toolNames);
      log(`step ${event.step}: loaded ${event.toolNames.join(', ')} (${event.loaded} loaded so far)`);
    })
    .build();
  const result = await agent.run('Order A-1 arrived broken. Please refund it.');
  log(`answer: ${result.text}`);
  log(`tools sent per step: ${sentPerStep.join(', ')} (of ${SYSTEMS.length * ACTIONS.length * OBJECTS.length + 2} tools)`);
  return { text: result.text, loaded, sentPerStep, calls: result.toolCalls.map((call) => call.toolName) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runToolSearch(providerFromEnv() ?? offlineTarget());
}
