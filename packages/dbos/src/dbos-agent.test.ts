import { DBOS } from '@dbos-inc/dbos-sdk';
import { Agent, AgentConfigurationError, memoryRunStore, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgresServer } from '../../postgres/src/testing/use-postgres-server';
import { dbosAgent } from './dbos-agent';
import { configureDbos } from './testing/dbos-config';

const postgres = usePostgresServer();
const refunds: string[] = [];
const lookups: string[] = [];
let asked = 0;

const lookup = tool({ name: 'lookup', description: 'Looks an order up', input: Type.Object({ order: Type.String() }), effect: 'none', execute: ({ order }) => (lookups.push(order), { paid: 50 }) });
const refund = tool({ name: 'refund', description: 'Refunds an order', input: Type.Object({ order: Type.String() }), needsApproval: true, execute: ({ order }) => (refunds.push(order), 'refunded') });
const model = scriptedModel((request) => {
  asked += 1;
  const results = request.messages.filter((message) => message.role === 'tool').length;
  if (results === 0) return { toolCalls: [{ id: 'l1', name: 'lookup', arguments: { order: 'A-1' } }] };
  if (results === 1) return { toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 'A-1' } }] };
  return 'Refunded $50.';
});
const agent = dbosAgent(Agent.create({ provider: model, model: 'demo', id: 'refunds' }).tools([lookup, refund]), { name: 'refunds-approvals' });

beforeAll(async () => {
  configureDbos(postgres.server.url, 'keel-dbos-agent');
  await DBOS.launch();
});
afterAll(() => DBOS.shutdown());

describe('dbosAgent', () => {
  it('runs each model call and each tool call as a DBOS step, and an approval sent as a message resumes the run once', async () => {
    const handle = await agent.start({ input: 'Refund order A-1' }, { workflowID: 'approve-A-1' });
    const suspension = await agent.suspension('approve-A-1', 20);
    expect(suspension).toMatchObject({ runId: 'approve-A-1', suspension: 1, pendingApprovals: [{ toolCallId: 'r1', toolName: 'refund' }], unknownOutcomes: [] });
    expect(refunds).toEqual([]);
    // Sent twice: DBOS delivers it once.
    await agent.decide('approve-A-1', 1, { approve: ['r1'] });
    await agent.decide('approve-A-1', 1, { approve: ['r1'] });
    const result = await handle.getResult();
    expect(result).toMatchObject({ status: 'complete', text: 'Refunded $50.', runId: 'approve-A-1' });
    expect(refunds).toEqual(['A-1']);
    expect(lookups).toEqual(['A-1']);
    expect(asked).toBe(3);
    const steps = (await DBOS.listWorkflowSteps('approve-A-1')) ?? [];
    const names = steps.map((step) => step.name);
    expect(names.filter((name) => name.startsWith('keel.model'))).toHaveLength(3);
    expect(names).toEqual(expect.arrayContaining(['keel.tool-intent lookup l1', 'keel.tool lookup l1', 'keel.tool-intent refund r1', 'keel.tool refund r1', 'DBOS.recv']));
  });

  it('keeps waiting when the decisions are refused, saying why, and goes on with decisions it can take', async () => {
    const handle = await agent.start({ input: 'Refund order A-2' }, { workflowID: 'approve-A-2' });
    expect(await agent.suspension('approve-A-2', 20)).toMatchObject({ suspension: 1 });
    await agent.decide('approve-A-2', 1, { approve: ['nope'] });
    await expect.poll(async () => (await agent.suspension('approve-A-2', 1))?.refused, { timeout: 15_000 }).toMatch(/nope/);
    // A message for a suspension the run is not at is dropped.
    await agent.decide('approve-A-2', 7, { approve: ['r1'] });
    await DBOS.send('approve-A-2', { suspension: 1, decisions: { reject: [{ id: 'r1', reason: 'not paid' }] } }, 'keel.decisions');
    const result = await handle.getResult();
    expect(result.status).toBe('complete');
    expect(refunds).toEqual(['A-1']);
  });

  it('takes corrected decisions sent with decide after the first ones for a suspension were refused', async () => {
    const handle = await agent.start({ input: 'Refund order A-3' }, { workflowID: 'approve-A-3' });
    expect(await agent.suspension('approve-A-3', 20)).toMatchObject({ suspension: 1 });
    await agent.decide('approve-A-3', 1, { approve: ['nope'] });
    await expect.poll(async () => (await agent.suspension('approve-A-3', 1))?.refused, { timeout: 15_000 }).toMatch(/nope/);
    await agent.decide('approve-A-3', 1, { reject: [{ id: 'r1', reason: 'not paid' }] });
    const result = await Promise.race([handle.getResult(), new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 10_000))]);
    expect(result).toMatchObject({ status: 'complete' });
    expect(refunds).toEqual(['A-1']);
  });

  it('refuses a builder that has a run store of its own', () => {
    expect(() => dbosAgent(Agent.create({ provider: model, model: 'demo' }).durable(memoryRunStore()), { name: 'refused' })).toThrow(AgentConfigurationError);
  });
});
