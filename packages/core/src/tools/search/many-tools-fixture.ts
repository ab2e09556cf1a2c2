import { Type } from '@sinclair/typebox';
import { Agent } from '../../agent/agent';
import { scriptedModel } from '../../testing/index';
import { type AnyTool, tool } from '../tool';

const SERVERS = ['billing', 'crm', 'github', 'jira', 'slack', 'drive', 'calendar', 'warehouse', 'analytics', 'support'];
const VERBS = ['get', 'list', 'create', 'update', 'delete'];
const NOUNS = ['record', 'item', 'note', 'report'];

/**
 * 200 tools: ten MCP-style servers of 20 would give them (each with a description and a schema
 * of four arguments), `refund_order` among them, plus two agents as tools: every one `defer`
 * as `defer` says (undefined: not marked, as the agent decides).
 */
export function manyTools(defer: boolean | undefined, refund: (input: { orderId: string; amount: number }) => string = ({ orderId, amount }) => `refunded ${amount} on ${orderId}`): AnyTool[] {
  const tools: AnyTool[] = [];
  for (const server of SERVERS) {
    for (const verb of VERBS) {
      for (const noun of NOUNS) {
        if (tools.length === 197) continue;
        tools.push(
          tool({
            name: `${server}_${verb}_${noun}`,
            description: `${verb[0]?.toUpperCase()}${verb.slice(1)}s a ${noun} in ${server}.`,
            input: Type.Object({ id: Type.String({ description: `The ${noun} id` }), workspace: Type.String(), fields: Type.Optional(Type.Array(Type.String())), limit: Type.Optional(Type.Integer({ minimum: 1 })) }),
            effect: 'none',
            ...(defer === undefined ? {} : { defer }),
            execute: () => `${verb} ${noun} done`,
          }) as AnyTool,
        );
      }
    }
  }
  tools.push(
    tool({ name: 'refund_order', description: 'Refunds a paid order to the customer.', input: Type.Object({ orderId: Type.String(), amount: Type.Number() }), effect: 'idempotent', ...(defer === undefined ? {} : { defer }), execute: refund }) as AnyTool,
  );
  for (const name of ['researcher', 'translator']) {
    tools.push(Agent.create({ provider: scriptedModel('done'), model: 'scripted' }).build().asTool({ name, description: `A ${name} agent: give it one task.`, ...(defer === undefined ? {} : { defer }) }) as AnyTool);
  }
  return tools;
}
