import { describe, expect, it } from 'vitest';
import { consoleTrace } from './console-trace';
import { retryScenario } from '../testing/retry-scenario';

describe('consoleTrace', () => {
  it('prints a run with a tool re-ask, a rate limit and a feedback retry', async () => {
    const lines: string[] = [];
    const { builder } = retryScenario();
    const result = await builder.use(consoleTrace({ write: (line) => lines.push(line), timings: false })).build().run('Refund order 1182?', { runId: '0123456789abcdef' });
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(lines.join('\n')).toMatchSnapshot();
  });

  it('colours only when asked, and shows timings by default', async () => {
    const plain: string[] = [];
    const coloured: string[] = [];
    await retryScenario().builder.use(consoleTrace({ write: (line) => plain.push(line) })).build().run('Refund?');
    await retryScenario().builder.use(consoleTrace({ write: (line) => coloured.push(line), colors: true })).build().run('Refund?');
    expect(plain.join('\n')).not.toContain('\x1b[');
    expect(plain.at(-1)).toMatch(/\(\d+\.\d ms\)$/);
    expect(coloured.join('\n')).toContain('\x1b[31m    ✗ output rejected');
    expect(coloured.length).toBe(plain.length);
  });

  it('writes to console.log by default', async () => {
    const original = globalThis.console.log;
    const seen: unknown[] = [];
    globalThis.console.log = (...data: unknown[]) => void seen.push(...data);
    try {
      await retryScenario().builder.use(consoleTrace()).build().run('Refund?');
    } finally {
      globalThis.console.log = original;
    }
    expect(seen[0]).toMatch(/^▶ run [0-9a-f]{8} on scripted\/scripted$/);
  });
});
