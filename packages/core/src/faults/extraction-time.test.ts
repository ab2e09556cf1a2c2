import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, ReliabilityFailFastError } from '../index';
import { scriptedModel } from '../testing/index';

/**
 * A model reply of 2 MB of pathological text never blocks the run: extraction is linear, so the
 * whole run (extraction, validation, the failure and its capped records) stays well under the bound.
 */

const SIZE = 2 * 1024 * 1024;
const replies: Record<string, string> = {
  'balanced non-JSON brackets': '{a}[b] '.repeat(Math.ceil(SIZE / 7)),
  'deep balanced brackets': `${'{['.repeat(SIZE / 4)}${']}'.repeat(SIZE / 4)}`,
  'unclosed brackets': '{['.repeat(SIZE / 2),
};

/** CPU time of `work`, so a loaded shared machine does not make the bound flaky. */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

describe('2 MB of pathological output through an agent', () => {
  it.each(Object.entries(replies))('%s: a typed stop well under the bound', async (_name, reply) => {
    const agent = Agent.create({ provider: scriptedModel(reply), model: 'm' }).outputSchema(Type.Object({ n: Type.Number() }), { maxRetries: 0 }).build();
    let error: unknown;
    const spent = await cpuMs(async () => {
      error = await agent.run('go').catch((thrown: unknown) => thrown);
    });
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).attempts[0]?.rawOutput?.length).toBeLessThanOrEqual(16_384);
    // Extraction alone takes under 1 s (extract-json.test.ts); the bound covers the whole run on a loaded machine.
    expect(spent).toBeLessThan(4000);
  });
});
