import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { AbortedError, Agent, tool } from '../index';
import { scriptedModel } from '../testing/index';

const KEY = 'i'.repeat(32);

/** An agent that looks an order up twice, then answers: three steps. */
function twoLookups(ran: string[]) {
  const lookup = tool({ name: 'lookup', description: 'Looks an order up', input: Type.Object({ n: Type.Number() }), effect: 'none', execute: ({ n }) => (ran.push(`lookup ${n}`), { n }) });
  const model = scriptedModel((request) => {
    const done = request.messages.filter((message) => message.role === 'tool').length;
    return done >= 2 ? 'Done.' : { toolCalls: [{ id: `l${done}`, name: 'lookup', arguments: { n: done } }] };
  });
  return Agent.create({ provider: model, model: 'm', id: 'iter', stateKey: KEY }).tool(lookup).build();
}

const within = <T>(promise: Promise<T>, ms = 1000) => Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('it hung')), ms))]);

describe('agent.iter()', () => {
  it('answers two next() calls made at once, each with its own step, in order', async () => {
    const iteration = twoLookups([]).iter('Look twice');
    const [first, second] = await within(Promise.all([iteration.next(), iteration.next()]));
    expect(first.done).toBe(false);
    expect(second.done).toBe(false);
    const steps = [first, second].map((read) => (read.done ? undefined : read.value.entries.map((entry) => entry.seq)));
    expect(steps[0]?.at(-1)).toBeLessThan(steps[1]?.[0] ?? -1);
    await iteration.return();
  });

  it('gives the run its end to a next() that waits when result is asked for', async () => {
    const ran: string[] = [];
    const iteration = twoLookups(ran).iter('Look twice');
    await iteration.next();
    const waiting = iteration.next();
    const result = await within(iteration.result);
    expect(result.text).toBe('Done.');
    await within(waiting);
    expect(ran).toEqual(['lookup 0', 'lookup 1']);
  });

  it("stops with the caller's signal, and the next read hears the abort", async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const iteration = twoLookups(ran).iter('Look twice', { signal: controller.signal });
    await iteration.next();
    controller.abort();
    const error = await within(iteration.next()).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    await expect(within(iteration.result)).rejects.toSatisfy((thrown: unknown) => AbortedError.isInstance(thrown));
    expect(ran.length).toBeLessThan(2);
  });
});
