import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent';
import type { AgentEvents } from '../events/agent-events';
import { scriptedModel } from '../testing/scripted-model';
import { type AnyTool, tool } from '../tools/tool';
import type { ToolSource, ToolSourceEmit } from '../tools/tool-source';

/** A source as an integration makes one: it keeps the runs observing it, and tells them its events. */
function fakeSource(): ToolSource & { readonly observers: Set<ToolSourceEmit>; tell(server: string): void } {
  const observers = new Set<ToolSourceEmit>();
  return {
    observers,
    observe(emit) {
      observers.add(emit);
      return () => void observers.delete(emit);
    },
    tell(server) {
      for (const emit of observers) emit('mcp.tools-changed', { server, tools: ['lookup'], added: ['lookup'], removed: [] });
    },
  };
}

describe('the sources of tools (tool.source)', () => {
  it("report on the agent's bus while a run holding their tools lasts, at the step it is in", async () => {
    const source = fakeSource();
    const lookup = tool({ name: 'lookup', description: 'Looks up.', input: Type.Object({}), execute: () => (source.tell('during'), 'found') });
    const heard: AgentEvents['mcp.tools-changed'][] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: {} }] }, 'done']);
    // Two tools of one source: the run observes it once.
    const twin = { ...tool({ name: 'twin', description: 'Twin.', input: Type.Object({}), execute: () => 'twin' }), source };
    const agent = Agent.create({ provider: model, model: 'scripted' }).tools([{ ...lookup, source } as AnyTool, twin as AnyTool]).build();
    agent.on('mcp.tools-changed', (event) => void heard.push(event));

    const result = await agent.run('look it up');
    source.tell('after');

    expect(heard.map((event) => [event.runId, event.step, event.server])).toEqual([[result.runId, 1, 'during']]);
    expect(source.observers.size).toBe(0);
  });

  it('are left when the run fails, and a listener that throws is reported as listener.error', async () => {
    const source = fakeSource();
    const failing = tool({ name: 'lookup', description: 'Looks up.', input: Type.Object({}), execute: () => (source.tell('during'), 'found') });
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: {} }] }, new Error('provider down')]);
    const errors: string[] = [];
    const agent = Agent.create({ provider: model, model: 'scripted' })
      .tools([{ ...failing, source } as AnyTool])
      .on('mcp.tools-changed', () => {
        throw new Error('listener bug');
      })
      .on('listener.error', (event) => void errors.push(`${event.event}: ${event.message}`))
      .build();

    await expect(agent.run('look it up')).rejects.toThrow();

    expect(errors).toEqual(['mcp.tools-changed: listener bug']);
    expect(source.observers.size).toBe(0);
  });
});
