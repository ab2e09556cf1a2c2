import { Agent, type Message, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import type pg from 'pg';
import { postgresMemory } from '../memory/postgres-memory';
import { postgresRunStore } from '../runs/postgres-run-store';

/** The refund each run makes: its order is in the user's message ("refund order 7"). */
const orderOf = (messages: readonly Message[]): string => {
  const first = messages.find((message) => message.role === 'user' && typeof message.content === 'string' && message.content.startsWith('refund order '));
  return typeof first?.content === 'string' ? first.content.slice('refund order '.length) : 'unknown';
};

const pause = (maxMs: number) => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * maxMs)));

/** The crash tests' own tables, in `schema`: counters, and the credits applied (one per idempotency key). */
export async function createEffectTables(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await pool.query(`CREATE TABLE IF NOT EXISTS "${schema}".test_counters (key text PRIMARY KEY, count integer NOT NULL)`);
  await pool.query(`CREATE TABLE IF NOT EXISTS "${schema}".test_credits (key text PRIMARY KEY, amount integer NOT NULL)`);
}

/** Adds one to counter `key`. */
export async function count(pool: pg.Pool, schema: string, key: string): Promise<void> {
  await pool.query(`INSERT INTO "${schema}".test_counters (key, count) VALUES ($1, 1) ON CONFLICT (key) DO UPDATE SET count = test_counters.count + 1`, [key]);
}

/** What a refunds test does around the `credit` tool's effect (a pause, a hang), given the order. */
export interface AroundCredit {
  readonly before?: (order: string) => Promise<unknown>;
  readonly after?: (order: string) => Promise<unknown>;
}

/**
 * The refunds' `credit` tool: idempotent, each execution counted (`credit-runs:<order>`), the
 * credit applied once per idempotency key as a payment API would, counted in the same statement
 * (`credit-applied:<order>`).
 */
export function creditTool(pool: pg.Pool, schema: string, { before, after }: AroundCredit = {}) {
  return tool({
    name: 'credit',
    description: 'Credits the customer',
    input: Type.Object({ order: Type.String(), amount: Type.Number() }),
    effect: 'idempotent',
    execute: async ({ order, amount }, context) => {
      await before?.(order);
      await count(pool, schema, `credit-runs:${order}`);
      await pool.query(
        `WITH applied AS (INSERT INTO "${schema}".test_credits (key, amount) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key)
         INSERT INTO "${schema}".test_counters (key, count) SELECT $3, 1 FROM applied ON CONFLICT (key) DO UPDATE SET count = test_counters.count + 1`,
        [context.idempotencyKey, amount, `credit-applied:${order}`],
      );
      await after?.(order);
      return 'credited';
    },
  });
}

/** The value of counter `key` (0 when never counted). */
export async function counted(pool: pg.Pool, schema: string, key: string): Promise<number> {
  const { rows } = await pool.query(`SELECT count FROM "${schema}".test_counters WHERE key = $1`, [key]);
  return Number(rows[0]?.count ?? 0);
}

/** What the refunds agent does besides its defaults. */
export interface RefundsAgentOptions {
  /** The longest random pause around each operation, so a kill lands anywhere. Default 40. */
  readonly maxPauseMs?: number;
  /** The model fails for good (401) once the credit is made: the run ends `failed`, for `recover` to go on with. */
  readonly failAfterCredit?: boolean;
}

/**
 * The durable refunds agent of the crash tests, on PostgreSQL: `credit` (idempotent: applied once
 * per idempotency key, each execution and each application counted) then `email` (once: each
 * execution counted), a scripted model counting each question, `postgresMemory` and
 * `postgresRunStore` in `schema`. Counters: `credit-runs:<order>`, `credit-applied:<order>`,
 * `email:<order>`, `asked:<order>:<step>`.
 */
export function refundsAgent(pool: pg.Pool, schema: string, options: RefundsAgentOptions = {}) {
  const { maxPauseMs = 40, failAfterCredit = false } = options;
  const credit = creditTool(pool, schema, { before: () => pause(maxPauseMs), after: () => pause(maxPauseMs) });

  const email = tool({
    name: 'email',
    description: 'Emails the customer',
    input: Type.Object({ order: Type.String(), text: Type.String() }),
    execute: async ({ order }) => {
      await pause(maxPauseMs);
      await count(pool, schema, `email:${order}`);
      await pause(maxPauseMs);
      return 'sent';
    },
  });
  const model = scriptedModel(async (request) => {
    const order = orderOf(request.messages);
    const results = request.messages.filter((message) => message.role === 'tool').length;
    await count(pool, schema, `asked:${order}:${results}`);
    await pause(maxPauseMs);
    if (results === 0) return { toolCalls: [{ id: 'credit-1', name: 'credit', arguments: { order, amount: 40 } }] };
    if (results === 1 && failAfterCredit) return Object.assign(new Error('401 invalid x-api-key'), { status: 401 });
    if (results === 1) return { toolCalls: [{ id: 'email-1', name: 'email', arguments: { order, text: `order ${order} refunded` } }] };
    return `Refunded order ${order}.`;
  });
  return Agent.create({ provider: model, model: 'scripted', id: 'refunds', stateKey: 'postgres-crash-test-state-key-0123456789' })
    .tool(credit)
    .tool(email)
    .memory(postgresMemory({ pool, schema, leaseMs: 300 }))
    .durable(postgresRunStore({ pool, schema }))
    .build();
}
