import { Type, type TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ReliabilityFailFastError } from '@keel/reliability';
import { Agent, tool } from '../index';
import { scriptedModel } from '../testing/index';

interface Call {
  readonly name?: string;
  readonly arguments: unknown;
}

/**
 * An agent whose model asks, at each step, for the calls `callsAt(step)` gives (ignoring any
 * feedback, as a stuck model does), and whose tools answer `result(name, arguments, n)` for their
 * `n`th call of the run.
 */
function scriptedRun(callsAt: (step: number) => readonly Call[] | undefined, result: (name: string, input: unknown, n: number) => string, input: TSchema = Type.Object({}, { additionalProperties: true })) {
  let n = 0;
  const names = ['a', 'b', 'c'];
  const tools = names.map((name) => tool({ name, description: name, input, execute: (args) => result(name, args, ++n) }));
  const model = scriptedModel((request) => {
    // A step is a turn whose calls were answered: a re-ask within a step asks for the same calls.
    const step = request.messages.filter((message, index) => message.role === 'assistant' && request.messages[index + 1]?.role === 'tool').length + 1;
    const calls = callsAt(step);
    if (!calls) return 'done';
    return { toolCalls: calls.map((call, index) => ({ id: `s${step}-${index}-${request.messages.length}`, name: call.name ?? 'a', arguments: call.arguments })) };
  });
  const agent = Agent.create({ provider: model, model: 'scripted', maxSteps: 20 }).tools(tools).build();
  return { agent, model };
}

/** How the run ended: `done`, the kind of a fail-fast stop, or the error's name. */
async function ending(agent: Agent<string>): Promise<string> {
  const error = await agent.run('go').then(
    () => 'done',
    (thrown: unknown) => thrown,
  );
  if (typeof error === 'string') return error;
  return ReliabilityFailFastError.isInstance(error) ? error.kind : (error as Error).name;
}

const always = (calls: readonly Call[]) => () => calls;
const same = () => 'same result';

describe('loops the detector must not miss', () => {
  it('the same search with whitespace that differs each time is a repeat (stopped, not run to maxSteps)', async () => {
    const { agent, model } = scriptedRun((step) => [{ arguments: { q: ` rust   async${' '.repeat(step)}` } }], same);
    expect(await ending(agent)).toBe('action-loop');
    expect(model.calls).toBe(5);
  });

  it('a field given as null one step and left out the next is the same call', async () => {
    const { agent, model } = scriptedRun((step) => [{ arguments: step % 2 ? { q: 'x', page: null } : { q: 'x' } }], same);
    expect(await ending(agent)).toBe('action-loop');
    expect(model.calls).toBe(5);
  });

  it('arguments the tool coerces ("5" for a number) match the call that ran with 5', async () => {
    const { agent, model } = scriptedRun(always([{ arguments: { n: '5' } }]), same, Type.Object({ n: Type.Number() }));
    expect(await ending(agent)).toBe('action-loop');
    expect(model.calls).toBe(5);
  });

  it('results that differ only by a request id and the time they were made are the same result', async () => {
    const { agent, model } = scriptedRun(always([{ arguments: { q: 'x' } }]), (_name, _input, n) =>
      JSON.stringify({ hits: ['a', 'b'], requestId: `req_${n}`, meta: { trace_id: `t${n}`, checkedAt: new Date(1_764_306_771_000 + n * 1000).toISOString(), timestamp: 1_764_306_771 + n } }),
    );
    expect(await ending(agent)).toBe('action-loop');
    expect(model.calls).toBe(5);
  });

  it('the same failing call whose error text carries a fresh request id each time is the same error', async () => {
    const { agent, model } = scriptedRun(always([{ arguments: { q: 'x' } }]), (_name, _input, n) => {
      throw new Error(`upstream answered 503 (x-request-id: 7f3a${n}c; trace id=${n * 7})`);
    });
    expect(await ending(agent)).toBe('action-loop');
    expect(model.calls).toBe(5);
  });

  it('a model that answers the nudge with one other call, then goes back round the loop, is stopped', async () => {
    const model = scriptedModel((request) => {
      const last = request.messages.at(-1);
      const nudged = last?.role === 'user' && last.ephemeral === true;
      return { toolCalls: [{ id: `c${request.messages.length}${nudged ? 'n' : ''}`, name: nudged ? 'b' : 'a', arguments: {} }] };
    });
    const tools = ['a', 'b'].map((name) => tool({ name, description: name, input: Type.Object({}), execute: () => `${name}: nothing new` }));
    const agent = Agent.create({ provider: model, model: 'scripted', maxSteps: 30 }).tools(tools).build();
    expect(await ending(agent)).toBe('action-loop');
    // a a a (nudge) b a a a (stop): it ran to maxSteps, nudged at every return.
    expect(model.calls).toBe(9);
  });

  it('the same call twice in parallel, turn after turn, and a cycle of three tools are stopped', async () => {
    const parallel = scriptedRun(always([{ arguments: { q: 'x' } }, { arguments: { q: 'x' } }]), same);
    expect(await ending(parallel.agent)).toBe('action-loop');
    expect(parallel.model.calls).toBe(5);
    const cycle = scriptedRun((step) => [{ name: ['a', 'b', 'c'][step % 3] as string, arguments: {} }], (name) => `${name} said the same`);
    expect(await ending(cycle.agent)).toBe('action-loop');
    expect(cycle.model.calls).toBeLessThanOrEqual(8);
  });

  it('a loop inside an agent called as a tool stops that agent, and the caller reads it as the tool error', async () => {
    const inner = scriptedRun(always([{ arguments: { q: 'x' } }]), same);
    const outer = scriptedModel([{ toolCalls: [{ id: 'd1', name: 'delegate', arguments: { message: 'find x' } }] }, 'gave up on x']);
    const parent = Agent.create({ provider: outer, model: 'scripted' }).tool(inner.agent.asTool({ name: 'delegate', description: 'd' })).build();
    const result = await parent.run('go');
    expect(result.text).toBe('gave up on x');
    expect(inner.model.calls).toBe(5);
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(result.toolCalls[0]?.output).toMatch(/action-loop/);
  });
});

describe('what the detector runs', () => {
  it("never runs a tool's own validator ({ parse }, Standard Schema) a second time to compare calls: once per call", async () => {
    let parses = 0;
    const input = {
      jsonSchema: { type: 'object', properties: { q: { type: 'string' } } },
      parse: (value: unknown) => {
        parses++;
        return value as { q: string };
      },
    };
    const counted = tool({ name: 'a', description: 'a', input, execute: () => 'same result' });
    const model = scriptedModel((request) => (request.messages.length > 9 ? 'done' : { toolCalls: [{ id: `c${request.messages.length}`, name: 'a', arguments: { q: 'x' } }] }));
    const agent = Agent.create({ provider: model, model: 'scripted', maxSteps: 20 }).tool(counted).build();
    expect(await ending(agent)).toBe('action-loop');
    const calls = model.requests.flatMap((request) => request.messages.filter((message) => message.role === 'tool'));
    expect(parses).toBeGreaterThan(0);
    expect(parses).toBe(new Set(calls.flatMap((message) => (message.content as readonly { toolCallId: string }[]).map((part) => part.toolCallId))).size);
  });
});

describe('progress the detector must not stop', () => {
  it('a result whose data changes deep inside, or in updatedAt, is progress', async () => {
    const nested = scriptedRun((step) => (step <= 8 ? [{ arguments: { job: 7 } }] : undefined), (_name, _input, n) => JSON.stringify({ job: { state: { percent: n * 10 } }, requestId: 'r' }));
    expect(await ending(nested.agent)).toBe('done');
    const updated = scriptedRun((step) => (step <= 8 ? [{ arguments: { job: 7 } }] : undefined), (_name, _input, n) => JSON.stringify({ status: 'running', updatedAt: `2026-11-28T05:0${n}:00Z` }));
    expect(await ending(updated.agent)).toBe('done');
  });

  it('the same arguments that page on through a cursor the tool keeps are progress', async () => {
    const { agent } = scriptedRun((step) => (step <= 8 ? [{ arguments: { next: true } }] : undefined), (_name, _input, n) => JSON.stringify({ items: [n * 2, n * 2 + 1], cursor: `c${n}` }));
    expect(await ending(agent)).toBe('done');
  });

  it('code written again with new indentation, answered "ok" each time, is progress', async () => {
    const { agent } = scriptedRun((step) => (step <= 5 ? [{ arguments: { path: 'a.py', content: `if x:\n${' '.repeat(step)}y()\n` } }] : undefined), () => 'ok: written');
    expect(await ending(agent)).toBe('done');
  });

  it('a call made twice on purpose is not a loop', async () => {
    const twice = scriptedRun((step) => (step <= 2 ? [{ arguments: { q: 'x' } }] : undefined), same);
    expect(await ending(twice.agent)).toBe('done');
  });
});
