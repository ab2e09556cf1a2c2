import { Agent, type Message, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import type pg from 'pg';
import { count } from '../../../postgres/src/testing/refunds-agent';

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
  const credit = tool({
    name: 'credit',
    description: 'Credits the customer',
    input: Type.Object({ order: Type.String(), amount: Type.Number() }),
    effect: 'idempotent',
    execute: async ({ order, amount }, context) => {
      await count(pool, schema, `credit-runs:${order}`);
      await pool.query(
        `WITH applied AS (INSERT INTO "${schema}".test_credits (key, amount) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key)
         INSERT INTO "${schema}".test_counters (key, count) SELECT $3, 1 FROM applied ON CONFLICT (key) DO UPDATE SET count = test_counters.count + 1`,
        [context.idempotencyKey, amount, `credit-applied:${order}`],
      );
      await hang('credit', order);
      return 'credited';
    },
  });
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
