import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresServer, type TestPostgresServer } from '../../packages/postgres/src/testing/postgres-server';
import { runDbosWorkflow } from './dbos-workflow';

let server: TestPostgresServer | undefined;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('the DBOS workflow example', () => {
  it('suspends on the approval, resumes once on the decision sent as a message, and refunds once', async () => {
    const lines: string[] = [];
    const outcome = await runDbosWorkflow(server?.url as string, (line) => lines.push(line));
    expect(outcome).toEqual({ status: 'complete', text: 'Refunded $40 on A-1001.', refunds: 1 });
    expect(lines).toEqual(['suspended (1): refund {"orderId":"A-1001","amount":40}', 'complete: Refunded $40 on A-1001. (refunds made: 1)']);
  });
});
