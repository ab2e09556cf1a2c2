import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, AgentConfigurationError, RunStateError, tool } from '../index';
import { scriptedModel, asSuspended } from '../testing/index';
import { claimSuspension } from './state/resumed-suspensions';

const KEY = 'k'.repeat(32);

/** An agent whose refund tool needs approval, the refunds made, and its model. */
function refundAgent(options: { id?: string; stateTtlMs?: number; stateKey?: string | null; answers?: 'final'; output?: Parameters<ReturnType<typeof Agent.create>['outputSchema']>[0] } = {}) {
  const made: number[] = [];
  const refund = tool({ name: 'refund', description: 'refunds', input: Type.Object({ amount: Type.Number() }), needsApproval: true, execute: ({ amount }) => void made.push(amount) });
  const model = scriptedModel(options.answers === 'final' ? ['{"done":true}'] : [{ toolCalls: [{ id: 'c1', name: 'refund', arguments: { amount: 40 } }] }, '{"done":true}']);
  const stateKey = options.stateKey === null ? {} : { stateKey: options.stateKey ?? KEY };
  let builder = Agent.create({ provider: model, model: 'm', ...stateKey, ...(options.id === undefined ? {} : { id: options.id }), ...(options.stateTtlMs === undefined ? {} : { stateTtlMs: options.stateTtlMs }) }).tool(refund);
  if (options.output) builder = builder.outputSchema(options.output) as never;
  return { agent: builder.build(), made };
}

const problemOf = (error: unknown) => (RunStateError.isInstance(error) ? error.problem : error);

describe('approvals are spent once, by the agent and tenant they were made for', () => {
  it('refuses a replay after 20,000 other resumes in the process (spent states are forgotten by time, never by count)', async () => {
    const { agent, made } = refundAgent();
    const suspended = asSuspended(await agent.run('refund 40'));
    if (suspended.status !== 'suspended' || !suspended.state) throw new Error('expected a suspension');
    const stored = JSON.stringify(suspended.state);
    await agent.resume(JSON.parse(stored), { approve: ['c1'] });
    const expiresAt = Date.now() + 60_000;
    for (let index = 0; index < 20_000; index++) claimSuspension(`other-${index}`, expiresAt);
    const replay = await agent.resume(JSON.parse(stored), { approve: ['c1'] }).catch(problemOf);
    expect(replay).toBe('already-resumed');
    expect(made).toEqual([40]);
  });

  it('refuses a state past its signed expiry', async () => {
    const { agent, made } = refundAgent({ stateTtlMs: 1 });
    const suspended = asSuspended(await agent.run('refund 40'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await agent.resume(suspended.state, { approve: ['c1'] }).catch(problemOf)).toBe('expired');
    expect(made).toEqual([]);
  });

  it('resumes a state only for the tenant it was made for', async () => {
    const { agent, made } = refundAgent();
    const suspended = asSuspended(await agent.run('refund 40', { tenant: 'acme' }));
    expect(await agent.resume(suspended.state, { approve: ['c1'] }, { tenant: 'globex' }).catch(problemOf)).toBe('other-tenant');
    expect(await agent.resume(suspended.state, { approve: ['c1'] }).catch(problemOf)).toBe('other-tenant');
    expect(made).toEqual([]);
    expect((await agent.resume(suspended.state, { approve: ['c1'] }, { tenant: 'acme' })).status).toBe('complete');
    expect(made).toEqual([40]);
  });

  it('refuses a state on an agent with another output schema, for TypeBox, Zod and { parse } schemas', async () => {
    const parse = () => ({ parse: (value: unknown) => value as { done: boolean } });
    const pairs = [
      [{ output: Type.Object({ done: Type.Boolean() }) }, { output: Type.Object({ done: Type.String() }) }],
      [{ output: z.object({ done: z.boolean() }) }, { output: z.object({ done: z.string() }) }],
      // { parse } schemas: told apart by identity in one process, by their declared ids across processes.
      [{ output: parse(), stateKey: null }, { output: parse(), stateKey: null }],
      [{ output: parse(), id: 'refunds-a' }, { output: parse(), id: 'refunds-b' }],
    ] as const;
    for (const [first, second] of pairs) {
      const a = refundAgent(first as never);
      const b = refundAgent(second as never);
      const suspended = asSuspended(await a.agent.run('refund 40'));
      expect(await b.agent.resume(suspended.state, { approve: ['c1'] }).catch(problemOf)).toBe('other-agent');
      expect(b.made).toEqual([]);
    }
  });

  it('asks for an id when a { parse } output schema must be named across processes', () => {
    expect(() => refundAgent({ output: { parse: (value: unknown) => value } })).toThrow(AgentConfigurationError);
    expect(() => refundAgent({ output: { parse: (value: unknown) => value }, id: 'refunds-v1' })).not.toThrow();
    expect(() => refundAgent({ id: '' })).toThrow(AgentConfigurationError);
    expect(() => refundAgent({ stateTtlMs: 0 })).toThrow(AgentConfigurationError);
  });

  it('resumes on another agent object with the same id and key (another process)', async () => {
    const first = refundAgent({ id: 'refunds-v1', output: { parse: (value: unknown) => value } });
    const second = refundAgent({ id: 'refunds-v1', output: { parse: (value: unknown) => value }, answers: 'final' });
    const suspended = asSuspended(await first.agent.run('refund 40'));
    expect((await second.agent.resume(JSON.parse(JSON.stringify(suspended.state)), { approve: ['c1'] })).status).toBe('complete');
    expect(second.made).toEqual([40]);
  });
});
