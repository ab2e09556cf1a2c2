import { describe, expect, it } from 'vitest';
import { runApprovals } from './approvals';

describe('the approvals example', () => {
  const quiet = () => undefined;

  it('approved: the refund runs once after the pause, the model is not asked again for that step', async () => {
    const lines: string[] = [];
    const outcome = await runApprovals(undefined, 'approve', (line) => lines.push(line));

    expect(outcome.refunds).toEqual([{ orderId: 'A-1001', amount: 120 }]);
    expect(outcome.suspensions).toEqual([1]);
    // lookup turn, refund turn (suspended), answer: three calls, none repeated.
    expect(outcome.modelCalls).toBe(3);
    expect(outcome.text).toMatch(/refunded in full/);
    expect(lines).toContain('edited state refused: bad-signature');
  });

  it('rejected: nothing is refunded and the model answers with the reason', async () => {
    const outcome = await runApprovals(undefined, 'reject', quiet);

    expect(outcome.refunds).toEqual([]);
    expect(outcome.text).toMatch(/receipt photo/);
  });
});
