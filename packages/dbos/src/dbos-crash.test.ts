import { describe, expect, it } from 'vitest';
import { counted, createEffectTables } from '../../postgres/src/testing/refunds-agent';
import { usePostgresServer } from '../../postgres/src/testing/use-postgres-server';
import { startWorkerProcess } from '../../redis/src/testing/worker-process';

const postgres = usePostgresServer();
const script = new URL('./testing/refunds-process.ts', import.meta.url);
type Message = { readonly event?: string; readonly order?: string; readonly status?: string; readonly unknown?: readonly string[] };
const is = (event: string, order?: string) => (message: unknown) => (message as Message).event === event && (order === undefined || (message as Message).order === order);

describe('a DBOS-hosted agent run killed in a tool step', () => {
  it('is recovered by DBOS on a new process: finished steps are not run again, an idempotent call runs again with its key, a once call is an unknown outcome settled by a message', async () => {
    const pool = postgres.pool();
    await createEffectTables(pool, 'effects');
    // Run 1 is killed inside its credit (idempotent), run 2 inside its email (once).
    const first = startWorkerProcess(script, [postgres.server.url, 'effects', 'start', 'credit:1,email:2', '1', '2']);
    await first.waitFor(is('inside', '1'), 40_000);
    await first.waitFor(is('inside', '2'), 40_000);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startWorkerProcess(script, [postgres.server.url, 'effects', 'recover', '-', '1', '2']);
    const suspended = (await second.waitFor(is('suspended', '2'), 40_000)) as Message;
    expect(suspended.unknown).toEqual(['email']);
    await second.waitFor(is('done'), 40_000);
    const completed = second.messages.filter(is('completed'));
    expect(completed).toHaveLength(2);
    expect(completed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ order: '1', status: 'complete', text: 'Refunded order 1.' }),
        expect.objectContaining({ order: '2', status: 'complete', text: 'Refunded order 2.' }),
      ]),
    );
    const counts = async (order: string) =>
      Object.fromEntries(await Promise.all(['credit-runs', 'credit-applied', 'email', 'asked:0', 'asked:1', 'asked:2'].map(async (key) => [key, await counted(pool, 'effects', key.startsWith('asked') ? `asked:${order}:${key.slice(6)}` : `${key}:${order}`)])));
    // Run 1: the credit ran again with its key (applied once); each model call was asked once.
    expect(await counts('1')).toEqual({ 'credit-runs': 2, 'credit-applied': 1, email: 1, 'asked:0': 1, 'asked:1': 1, 'asked:2': 1 });
    // Run 2: the email was not run again (its outcome given by the decision); nothing finished ran twice.
    expect(await counts('2')).toEqual({ 'credit-runs': 1, 'credit-applied': 1, email: 1, 'asked:0': 1, 'asked:1': 1, 'asked:2': 1 });
    await second.exited;
  });
});
