import { describe, expect, it } from 'vitest';
import { runDispatch } from './agents-as-tools';

describe('the agents-as-tools example', () => {
  it("triage recovers from a bad answer inside the tool call; the dispatcher counts triage's calls", async () => {
    const outcome = await runDispatch(undefined, () => undefined);

    expect(outcome.tickets).toEqual([{ queue: 'billing', priority: 'urgent', summary: 'Charged twice; account overdrawn' }]);
    // Dispatcher: three calls. Triage: one rejected answer, one accepted.
    expect(outcome.modelCalls).toBe(5);
    expect(outcome.statuses.filter((status) => status === 'invalid')).toHaveLength(1);
    expect(outcome.text).toMatch(/billing team/);
  });
});
