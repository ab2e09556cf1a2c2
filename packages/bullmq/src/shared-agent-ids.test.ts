import { Agent, AgentConfigurationError, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { createAgentWorker } from './create-agent-worker';
import { queueFixture } from './testing/queue-fixture';

const fixture = queueFixture('agent-ids');

const lookup = tool({ name: 'lookup', description: 'look up', input: Type.Object({ id: Type.Number() }), execute: () => 'found' });
const agentWith = (options: { id?: string; tools?: boolean } = {}) => {
  const builder = Agent.create({ provider: scriptedModel('ok'), model: 'scripted', ...(options.id === undefined ? {} : { id: options.id }) });
  return (options.tools === false ? builder : builder.tool(lookup)).build();
};

/** The error `createAgentWorker` throws for these agents, or `undefined` when it makes the worker (closed after the test). */
function refusal(agents: Parameters<typeof createAgentWorker>[0]['agents']): unknown {
  try {
    const made = createAgentWorker({ connection: fixture.connection(), queue: 'agent-ids', agents });
    fixture.cleanup(() => made.close(true));
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('createAgentWorker and agent ids', () => {
  it('refuses, when it is made, two agents of one definition (the same derived id), naming both', () => {
    const error = refusal({ payments: agentWith(), globex: agentWith() });
    expect(AgentConfigurationError.isInstance(error) && error.setting).toBe('agents');
    expect((error as Error).message).toContain('"payments" and "globex" have the same agent id (their ids are derived from the same tools and output schema)');
  });

  it('refuses one agent under two names, and two agents that declare the same id, builders included', () => {
    const shared = agentWith();
    expect((refusal({ a: shared, b: shared }) as Error).message).toContain('"a" and "b" have the same agent id');
    const declared = refusal({ a: agentWith({ id: 'refunds-v1' }), b: Agent.create({ provider: scriptedModel('ok'), model: 'scripted', id: 'refunds-v1' }) });
    expect((declared as Error).message).toContain('(they declare the same id)');
  });

  it('accepts agents whose ids differ: declared, or derived from other tools', () => {
    expect(refusal({ a: agentWith({ id: 'refunds-v1' }), b: agentWith({ id: 'refunds-v2' }) })).toBeUndefined();
    expect(refusal({ a: agentWith(), b: agentWith({ tools: false }) })).toBeUndefined();
  });
});
