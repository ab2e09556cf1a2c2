import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, tool } from '../index';
import { scriptedModel } from '../testing/index';
import { idempotencyKeyOf } from './run-tool-call';

const Amount = Type.Object({ amount: Type.Number() });

describe('tool effects and idempotency keys', () => {
  it('defaults to once, takes none and idempotent, and refuses anything else', () => {
    const base = { name: 'refund', description: 'Refund', input: Amount, execute: () => 'ok' };
    expect(tool(base).effect).toBe('once');
    expect(tool({ ...base, effect: 'idempotent' }).effect).toBe('idempotent');
    expect(tool({ ...base, effect: 'none' }).effect).toBe('none');
    expect(() => tool({ ...base, effect: 'twice' as never })).toThrow(AgentConfigurationError);
  });

  it('gives the tool one key per logical call: the same across a re-ask of its arguments, another for another call', async () => {
    const keys: string[] = [];
    const refund = tool({ name: 'refund', description: 'Refund', input: Amount, effect: 'idempotent', execute: (_input, context) => void keys.push(context.idempotencyKey) });
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'refund', arguments: { amount: 'lots' } }] },
      { toolCalls: [{ id: 'c1', name: 'refund', arguments: { amount: 50 } }] },
      { toolCalls: [{ id: 'c2', name: 'refund', arguments: { amount: 20 } }] },
      'done',
    ]);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();
    const result = await agent.run('refund twice', { runId: 'run-7' });
    expect(result.text).toBe('done');
    expect(keys).toEqual(['run-7:c1', 'run-7:c2']);
  });

  it('hashes keys too long for the systems that take them, keeping distinct calls distinct', () => {
    const long = 'r'.repeat(300);
    const first = idempotencyKeyOf(long, 'c1');
    expect(first.length).toBeLessThanOrEqual(64);
    expect(first).not.toBe(idempotencyKeyOf(long, 'c2'));
    expect(idempotencyKeyOf(long, 'c1')).toBe(first);
  });
});
