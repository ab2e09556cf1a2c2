import { describe, expect, it } from 'vitest';
import { offlineTarget, runNativeOutput } from './native-output';

describe('the native output example (offline)', () => {
  it('sends the lowered schema natively, re-asks the broken bound, streams partials and validates the answer', async () => {
    const lines: string[] = [];
    const target = offlineTarget();
    const value = await runNativeOutput(target, (line) => lines.push(line));
    expect(value).toEqual({
      customer: 'ACME GmbH',
      lines: [
        { item: 'keyboard', quantity: 3, unitPrice: 49.9 },
        { item: 'cable', quantity: 100, unitPrice: 2.5 },
      ],
      currency: 'EUR',
      dueDate: '2026-12-31',
    });
    expect(lines).toContain('request 1: output mode native');
    expect(lines.some((line) => line.startsWith('the decoder will not enforce:') && line.includes('maximum'))).toBe(true);
    expect(lines.some((line) => line.startsWith('  rejected attempt 1:') && line.includes('quantity'))).toBe(true);
    expect(lines).toContain('  (dropping the partials of the failed attempt)');
    expect(lines.filter((line) => line.startsWith('  partial (attempt 2)')).length).toBeGreaterThan(3);
    expect(lines.at(-1)).toBe('2 model calls: invalid, valid');
    const sent = (target.provider as unknown as { requests: readonly { responseFormat?: { strict?: boolean; schema?: object } }[] }).requests[0]?.responseFormat;
    expect(sent?.strict).toBe(true);
    expect(JSON.stringify(sent?.schema)).not.toContain('maximum');
  });
});
