import { describe, expect, it } from 'vitest';
import { offlineTarget, runBusinessRules } from './business-rules';
import { asComplete } from '@keel/core/test';

describe('the business rules example (offline)', () => {
  it('rejects a valid answer over the refund limit with feedback, and keeps only the accepted exchange', async () => {
    const lines: string[] = [];
    const target = offlineTarget();
    const result = asComplete(await runBusinessRules(target, (line) => lines.push(line)));
    expect(result.value).toMatchObject({ queue: 'shipping', refund: 1000 });
    expect(lines[0]).toBe('attempt 1 rejected (rule-check): Refunds above 1000 need a manager. Offer at most 1000 and say in the summary that a manager will follow up.');
    expect(lines.at(-1)).toBe('2 model calls: rule-rejected, ok; kept messages: 2');
    expect(JSON.stringify(result.messages)).not.toContain('1499');
    const second = (target.provider as unknown as { requests: readonly { messages: readonly { ephemeral?: boolean }[] }[] }).requests[1];
    expect(second?.messages.filter((message) => message.ephemeral)).toHaveLength(2);
  });
});
