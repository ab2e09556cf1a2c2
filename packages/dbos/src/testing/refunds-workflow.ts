import { Agent, type Message, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import type pg from 'pg';
import { count, creditTool } from '../../../postgres/src/testing/refunds-agent';

/** The order a run refunds: its user message is "refund order <order>". */
const orderOf = (messages: readonly Message[]): string => {
  const first = messages.find((message) => message.role === 'user' && typeof message.content === 'string');
  return typeof first?.content === 'string' ? first.content.replace('refund order ', '') : 'unknown';
};

/** What the refunds agent of the DBOS tests does besides its defaults. */
export interface RefundsOptions {
  /** `<tool>:<order>`: the calls that hang once running (counted), so that a test kills the process in them. */
  readonly hangIn?: ReadonlySet<string>;
  /** Called when a call starts hanging. */
  readonly onHang?: (tool: string, order: string) => void;
}

/**
 * The refunds agent of the DBOS tests: `credit` (idempotent: applied once per idempotency key)
 * then `email` (once), then the answer; a scripted model. Counters in `schema`:
 * `credit-runs:<order>`, `credit-applied:<order>`, `email:<order>`, `asked:<order>:<turn>`.
 */
export function refundsBuilder(pool: pg.Pool, schema: string, options: RefundsOptions = {}) {
  const hang = async (name: string, order: string) => {
    if (!options.hangIn?.has(`${name}:${order}`)) return;
    options.onHang?.(name, order);
    await new Promise(() => undefined);
  };
  const credit = creditTool(pool, schema, { after: (order) => hang('credit', order) });

  const email = tool({
    name: 'email',
    description: 'Emails the customer',
    input: Type.Object({ order: Type.String() }),
    execute: async ({ order }) => {
      await count(pool, schema, `email:${order}`);
      await hang('email', order);
      return 'sent';
    },
  });
  const model = scriptedModel(async (request) => {
    const order = orderOf(request.messages);
    const turn = request.messages.filter((message) => message.role === 'tool').length;
    await count(pool, schema, `asked:${order}:${turn}`);
    if (turn === 0) return { toolCalls: [{ id: 'credit-1', name: 'credit', arguments: { order, amount: 40 } }] };
    if (turn === 1) return { toolCalls: [{ id: 'email-1', name: 'email', arguments: { order } }] };
    return `Refunded order ${order}.`;
  });
  return Agent.create({ provider: model, model: 'demo', id: 'refunds' }).tools([credit, email]);
}
