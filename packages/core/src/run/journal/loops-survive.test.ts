import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ActionLoopError, Agent, type AgentEvents, type JournalEntry, memoryRunStore, type ModelResponse, type RunStore, tool } from '../../index';
import type { ModelProviderV1 } from '@keel/provider';

/**
 * The loop rules' count of nudges is the journal's: a loop nudged before a suspension or a crash
 * is stopped, not nudged again, once the run goes on (resumed, or recovered in another process).
 */

const KEY = 'l'.repeat(32);
const usage = { inputTokens: 5, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };
const call = (name: string, args: unknown, id: string): ModelResponse => ({ content: [{ type: 'tool-call', id, name, arguments: args }], text: '', finishReason: 'tool-calls', usage });

/** Checks a status that never changes; after the nudge calls `detour` once, then goes back round the loop. */
function looping(detour: string): ModelProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'looping',
    generate: async (request) => {
      const done = request.messages.filter((message) => message.role === 'tool').length;
      const last = request.messages.at(-1);
      const nudged = last?.role === 'user' && request.messages.length > 1;
      if (nudged) return call(detour, { n: done }, `d${done}`);
      return call('status', { job: 'j-1' }, `s${done}`);
    },
  };
}

function agentOf(detour: string, ran: string[], store?: RunStore) {
  const status = tool({ name: 'status', description: 'Job status', input: Type.Object({ job: Type.String() }), effect: 'none', execute: () => (ran.push('status'), 'failed: disk full') });
  const refund = tool({ name: 'refund', description: 'Refunds', input: Type.Object({ n: Type.Number() }), needsApproval: true, execute: () => (ran.push('refund'), 'refunded') });
  const note = tool({ name: 'note', description: 'Notes', input: Type.Object({ n: Type.Number() }), effect: 'none', execute: () => (ran.push('note'), 'noted') });
  const builder = Agent.create({ provider: looping(detour), model: 'm', id: 'looper', stateKey: KEY, maxSteps: 30 }).tools([status, refund, note]);
  return (store ? builder.durable(store) : builder).build();
}

const loopEvents = (agent: ReturnType<typeof agentOf>) => {
  const seen: AgentEvents['reliability.loop-detected'][] = [];
  agent.on('reliability.loop-detected', (event) => void seen.push(event));
  return seen;
};

describe('a loop nudged before the run stopped', () => {
  it('is stopped, not nudged again, after a resume', async () => {
    const ran: string[] = [];
    const first = agentOf('refund', ran);
    const before = loopEvents(first);
    const suspended = await first.run('Is job j-1 done?');
    expect(suspended.status).toBe('suspended');
    expect(before.map((event) => event.action)).toEqual(['nudge']);
    if (suspended.status !== 'suspended') return;
    // Another agent object (another process) resumes the state.
    const second = agentOf('refund', ran);
    const after = loopEvents(second);
    let ended: AgentEvents['run.end'] | undefined;
    second.on('run.end', (event) => void (ended = event));
    const error = await second.resume(suspended.state, { approve: suspended.pendingApprovals.map((pending) => pending.toolCallId) }).catch((thrown: unknown) => thrown);
    expect(ActionLoopError.isInstance(error)).toBe(true);
    expect(after.map((event) => event.action)).toEqual(['stop']);
    expect(ended?.loopsDetected).toBe(2);
    expect(ran.filter((name) => name === 'refund')).toHaveLength(1);
  });

  it('is stopped, not nudged again, after a recovery in another process', async () => {
    const base = memoryRunStore();
    let dead = false;
    // The process dies as the detour's outcome is written: the nudge is in the journal, the detour's result is not.
    const dying: RunStore = {
      ...base,
      append: (lease, append) => {
        if (dead || append.entries.some((entry) => (entry as JournalEntry).type === 'tool-outcome' && (entry as JournalEntry).outcome?.toolName === 'note')) {
          dead = true;
          return Promise.reject(new Error('the process died'));
        }
        return base.append(lease, append);
      },
    };
    const ran: string[] = [];
    await expect(agentOf('note', ran, dying).run('Is job j-1 done?', { runId: 'loop-1' })).rejects.toThrow('the process died');
    const journal = (await base.load('loop-1'))?.entries as JournalEntry[];
    expect(journal.some((entry) => (entry.loops ?? 0) === 1)).toBe(true);
    const recovering = agentOf('note', ran, base);
    const after = loopEvents(recovering);
    const error = await recovering.recover('loop-1').catch((thrown: unknown) => thrown);
    expect(ActionLoopError.isInstance(error)).toBe(true);
    expect(after.map((event) => event.action)).toEqual(['stop']);
    const ended = (await base.load('loop-1'))?.entries.at(-1) as JournalEntry;
    expect(ended).toMatchObject({ type: 'failure', loops: 2 });
  });
});
