/**
 * An agent run as a DBOS durable workflow (@keel/dbos): each model call and each tool call is a
 * DBOS step recorded in PostgreSQL, so a process that dies has the run recovered by DBOS when the
 * application launches again, finished steps not run again. The refund needs approval: the run
 * suspends, the workflow publishes the `keel.suspension` event and waits for the decision, sent
 * as a DBOS message (twice here: DBOS delivers it once), and the refund is made once.
 *
 * Offline on a scripted model. It NEEDS A POSTGRESQL SERVER: set DBOS_SYSTEM_DATABASE_URL
 * (default postgres://postgres@localhost:5432/postgres).
 * Run it with: pnpm --filter @keel/examples exec tsx --conditions=@keel/source src/dbos-workflow.ts
 */
import { pathToFileURL } from 'node:url';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { Agent, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { dbosAgent } from '@keel/dbos';
import { Type } from '@sinclair/typebox';

const refunds: string[] = [];
const refund = tool({
  name: 'refund',
  description: 'Refunds an order',
  input: Type.Object({ orderId: Type.String(), amount: Type.Number() }),
  needsApproval: true,
  execute: ({ orderId, amount }) => (refunds.push(orderId), `refunded $${amount} on ${orderId}`),
});
const model = scriptedModel((request) =>
  request.messages.some((message) => message.role === 'tool') ? 'Refunded $40 on A-1001.' : { toolCalls: [{ id: 'refund-1', name: 'refund', arguments: { orderId: 'A-1001', amount: 40 } }] },
);
// Registered before DBOS.launch(), in every process that may run or recover it.
const refundsWorkflow = dbosAgent(Agent.create({ provider: model, model: 'demo', id: 'refunds' }).tool(refund), { name: 'refunds' });

/** What the example ends with. */
export interface DbosOutcome {
  readonly status: string;
  readonly text: string;
  readonly refunds: number;
}

/** Launches DBOS on `url`, runs the refund as a workflow, approves it by message, and shuts DBOS down. */
export async function runDbosWorkflow(url: string, log: (line: string) => void = console.log): Promise<DbosOutcome> {
  DBOS.setConfig({ name: 'keel-example', systemDatabaseUrl: url, runAdminServer: false, logLevel: 'error' });
  await DBOS.launch();
  try {
    const workflowID = `refund-A-1001-${Date.now()}`;
    const handle = await refundsWorkflow.start({ input: 'Order A-1001 arrived broken: refund the $40.' }, { workflowID });
    const suspension = await refundsWorkflow.suspension(workflowID, 30);
    if (suspension === null) throw new Error('the run did not suspend');
    log(`suspended (${suspension.suspension}): ${suspension.pendingApprovals.map((call) => `${call.toolName} ${JSON.stringify(call.arguments)}`).join(', ')}`);
    const approve = { approve: suspension.pendingApprovals.map((call) => call.toolCallId) };
    await refundsWorkflow.decide(workflowID, suspension.suspension, approve);
    await refundsWorkflow.decide(workflowID, suspension.suspension, approve); // the same decision again: delivered once
    const result = await handle.getResult();
    log(`${result.status}: ${result.text} (refunds made: ${refunds.length})`);
    return { status: result.status, text: result.text, refunds: refunds.length };
  } finally {
    await DBOS.shutdown();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runDbosWorkflow(process.env.DBOS_SYSTEM_DATABASE_URL ?? 'postgres://postgres@localhost:5432/postgres');
}
