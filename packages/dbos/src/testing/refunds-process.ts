/**
 * A process of the DBOS crash test: registers the refunds agent of refunds-workflow.ts as a DBOS
 * workflow and launches DBOS (which recovers the workflows a killed process left pending),
 * printing a JSON line at each event.
 * Arguments: url schema mode hangIn order...
 *   mode `start`: starts a workflow `run-<order>` for each order (its calls in hangIn hang);
 *   mode `recover`: waits for each workflow DBOS recovered; one that suspends on unknown outcomes
 *   is settled (each call was sent: `outcomes`), and each result reported.
 * hangIn: comma-separated `<tool>:<order>` (or `-`).
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { RunResult } from '@keel/core';
import pg from 'pg';
import { dbosAgent } from '../dbos-agent';
import { configureDbos } from './dbos-config';
import { refundsBuilder } from './refunds-workflow';

const [url = '', schema = 'effects', mode = 'start', hangIn = '-', ...orders] = process.argv.slice(2);
const say = (message: object) => process.stdout.write(`${JSON.stringify({ pid: process.pid, ...message })}\n`);
const pool = new pg.Pool({ connectionString: url, max: 4 });
pool.on('error', () => undefined);
const hangs = new Set(hangIn === '-' ? [] : hangIn.split(','));
const agent = dbosAgent(refundsBuilder(pool, schema, { hangIn: hangs, onHang: (tool, order) => say({ event: 'inside', tool, order }) }), { name: 'refunds' });
configureDbos(url, 'keel-dbos-crash');
await DBOS.launch();
say({ event: 'launched' });

async function recover(order: string): Promise<void> {
  const workflowID = `run-${order}`;
  const settled = DBOS.retrieveWorkflow<RunResult>(workflowID).getResult();
  const first = await Promise.race([settled.then(() => undefined), agent.suspension(workflowID, 30)]);
  if (first) {
    say({ event: 'suspended', order, unknown: first.unknownOutcomes.map((call) => call.toolName), approvals: first.pendingApprovals.length });
    await agent.decide(workflowID, first.suspension, { outcomes: first.unknownOutcomes.map((call) => ({ id: call.toolCallId, result: 'sent' })) });
  }
  const result = await settled;
  say({ event: 'completed', order, status: result.status, text: result.text });
}

if (mode === 'start') {
  for (const order of orders) {
    await agent.start({ input: `refund order ${order}` }, { workflowID: `run-${order}` });
    say({ event: 'started', order });
  }
} else {
  await Promise.all(orders.map((order) => recover(order).catch((error: unknown) => say({ event: 'failed', order, message: String(error) }))));
  say({ event: 'done' });
  await DBOS.shutdown();
  await pool.end();
  process.exit(0);
}
