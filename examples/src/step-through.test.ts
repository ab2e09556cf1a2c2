import { describe, expect, it } from 'vitest';
import { stepThrough } from './step-through';

describe('the step-through example', () => {
  it('stops after the lookup, continues the saved journal on a new agent: the lookup runs once, the model is asked twice', async () => {
    const lines: string[] = [];
    const outcome = await stepThrough({ live: false, log: (line) => lines.push(line) });
    expect(outcome).toEqual({
      stoppedAfter: ['input', 'model-turn', 'tool-intent', 'tool-outcome', 'tool-results', 'failure'],
      journalBytes: expect.any(Number),
      text: 'Order A-1182 was paid $50 and arrived damaged: it qualifies for a full refund.',
      lookups: 1,
      modelCalls: 2,
    });
    expect(lines[0]).toBe('step 1: #0 input, #1 model-turn -> next: call-tools');
  });
});
