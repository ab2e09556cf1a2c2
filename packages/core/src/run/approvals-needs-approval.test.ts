import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, tool } from '../index';
import { scriptedModel, asSuspended } from '../testing/index';
import { toolResults, refunds, refundCall, roundTrip } from './approvals-fixture';

describe('tool approval', () => {
  it('runs the calls of the turn that need no approval before suspending, once; results stay in call order', async () => {
    const { refund, made } = refunds();
    const looked: string[] = [];
    const lookup = tool({ name: 'lookup', description: 'looks an order up', input: Type.Object({ id: Type.String() }), execute: ({ id }) => (looked.push(id), `order ${id}: paid`) });
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40), { id: 'c2', name: 'lookup', arguments: { id: 'A-1' } }] }, 'Done.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).tool(lookup).build();

    const result = asSuspended(await agent.run('go'));
    expect(result.pendingApprovals.map((pending) => pending.toolCallId)).toEqual(['c1']);
    expect(looked).toEqual(['A-1']);
    expect(result.toolCalls).toMatchObject([{ toolCallId: 'c2', output: 'order A-1: paid' }]);

    const resumed = await agent.resume(roundTrip(result.state), { approve: ['c1'] });
    expect(looked).toEqual(['A-1']);
    expect(made).toHaveLength(1);
    expect(toolResults(model.requests[1]).map((part) => [part.toolCallId, part.output])).toEqual([
      ['c1', 'refunded 40 on A-1'],
      ['c2', 'order A-1: paid'],
    ]);
    expect(resumed.toolCalls.map((record) => record.toolCallId)).toEqual(['c1', 'c2']);
  });

  it('asks a needsApproval function with the validated (coerced) value: small refunds run, large ones wait', async () => {
    const asked: unknown[] = [];
    const { refund, made } = refunds((input, context) => {
      asked.push([input, context.toolCallId]);
      return input.amount > 100;
    });
    const model = scriptedModel([{ toolCalls: [refundCall('small', '40' as unknown as number), refundCall('big', 400)] }, 'Done.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const result = await agent.run('go');

    expect(asked).toEqual([[{ orderId: 'A-1', amount: 40 }, 'small'], [{ orderId: 'A-1', amount: 400 }, 'big']]);
    expect(made).toEqual([{ orderId: 'A-1', amount: 40 }]);
    expect(result.pendingApprovals).toEqual([{ toolCallId: 'big', toolName: 'refund', arguments: { orderId: 'A-1', amount: 400 } }]);
  });

  it('a needsApproval function that throws ends the call with approval-error; the tool does not run', async () => {
    const { refund, made } = refunds(() => {
      throw new Error('policy service down');
    });
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'Could not refund.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const result = await agent.run('go');

    expect(result.status).toBe('complete');
    expect(made).toEqual([]);
    expect(result.toolCalls).toMatchObject([{ toolCallId: 'c1', isError: true, errorCode: 'approval-error' }]);
  });
});

describe('tool approval', () => {
  it('checks an approved call again: a guard that now refuses stops it at resume', async () => {
    let frozen = false;
    const { refund, made } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'Blocked.']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(refund)
      .guards([(name) => (frozen && name === 'refund' ? { code: 'account-frozen', message: 'refunds are frozen' } : undefined)])
      .build();

    const result = asSuspended(await agent.run('go'));
    frozen = true;
    const resumed = await agent.resume(roundTrip(result.state), { approve: ['c1'] });

    expect(made).toEqual([]);
    expect(resumed.toolCalls).toMatchObject([{ toolCallId: 'c1', isError: true, errorCode: 'account-frozen' }]);
  });

  it('a guard refusing before approval never suspends the run', async () => {
    const { refund, made } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'Blocked.']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(refund)
      .guards([() => ({ code: 'blocked', message: 'no' })])
      .build();

    const result = await agent.run('go');

    expect(result.status).toBe('complete');
    expect(made).toEqual([]);
  });

  it('asks needsApproval about the corrected arguments of a re-asked call, never the rejected ones', async () => {
    const asked: number[] = [];
    const { refund, made } = refunds(({ amount }) => (asked.push(amount), true));
    const model = scriptedModel((request) =>
      request.toolChoice?.type === 'tool' ? { toolCalls: [refundCall('c1', 400)] } : { toolCalls: [refundCall('c1', 'lots' as unknown as number)] },
    );
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const result = asSuspended(await agent.run('go'));

    expect(asked).toEqual([400]);
    expect(result.pendingApprovals).toEqual([{ toolCallId: 'c1', toolName: 'refund', arguments: { orderId: 'A-1', amount: 400 } }]);
    expect(result.state?.usage.modelCalls).toBe(2);
    expect(made).toEqual([]);
  });

  it('a needsApproval function that never answers is ended by the run\'s deadline; nothing runs', async () => {
    const { refund, made } = refunds(() => new Promise<boolean>(() => undefined));
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'unused']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    await expect(agent.run('go', { timeoutMs: 50 })).rejects.toMatchObject({ name: 'AbortedError', timedOut: true });
    expect(made).toEqual([]);
  });

  it('refuses needsApproval that is neither a boolean nor a function', () => {
    expect(() => tool({ name: 't', description: 'd', input: Type.Object({}), needsApproval: 'yes' as never, execute: () => 'x' })).toThrow(/needsApproval/);
  });
});
