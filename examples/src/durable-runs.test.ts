import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedisServer } from '../../packages/redis/src/testing/redis-server';
import { runDurable } from './durable-runs';

let server: TestRedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('the durable runs example', () => {
  it('a worker killed while emailing: the run is recovered on another process, nothing is made twice', async () => {
    const lines: string[] = [];
    const outcome = await runDurable(server?.url as string, { live: false, log: (line) => lines.push(line) });
    expect(outcome).toEqual({ ended: 'killed', status: 'complete', text: 'Refunded $40 on A-1001 and emailed you.', credits: 1, emails: 1, modelCalls: 3 });
    expect(lines).toContain('worker process: killed with SIGKILL while sending the email');
    expect(lines.some((line) => line.startsWith('unknown outcome: email') && line.endsWith('the outbox has it'))).toBe(true);
  }, 60_000);
});
