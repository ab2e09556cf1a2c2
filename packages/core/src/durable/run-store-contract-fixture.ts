import { describe, expect, it } from 'vitest';
import { StaleRunOwnerError } from '../errors/stale-run-owner-error';
import type { RunStore } from './run-store';

const CHECKPOINT = { agentId: 'refunds', status: 'running' as const, state: { step: 1, messages: [{ role: 'user', content: 'Refund A-1?' }] } };

/** What every {@link RunStore} promises, run against one store implementation. */
export function describeRunStore(name: string, makeStore: () => RunStore): void {
  describe(`${name} (run store contract)`, () => {
    it('keeps the latest checkpoint with a version one higher per write, as JSON', async () => {
      const store = makeStore();
      expect(await store.load('run-1')).toBeUndefined();
      const lease = await store.acquire('run-1');
      const first = await store.save(lease, CHECKPOINT);
      const second = await store.save(lease, { ...CHECKPOINT, status: 'complete', state: { step: 2 } });
      expect([first.version, second.version]).toEqual([1, 2]);
      expect(await store.load('run-1')).toEqual({ runId: 'run-1', agentId: 'refunds', status: 'complete', state: { step: 2 }, version: 2 });
    });

    it('refuses the write of an owner a newer one replaced, writing nothing', async () => {
      const store = makeStore();
      const stale = await store.acquire('run-2');
      await store.save(stale, CHECKPOINT);
      const fresh = await store.acquire('run-2');
      expect(fresh.fence).toBeGreaterThan(stale.fence);
      const refused = await store.save(stale, { ...CHECKPOINT, state: { step: 99 } }).catch((error: unknown) => error);
      expect(StaleRunOwnerError.isInstance(refused)).toBe(true);
      expect((await store.load('run-2'))?.state).toEqual(CHECKPOINT.state);
      await store.save(fresh, { ...CHECKPOINT, state: { step: 3 } });
      expect((await store.load('run-2'))?.state).toEqual({ step: 3 });
    });

    it('lets exactly one of many concurrent owners write once all have acquired', async () => {
      const store = makeStore();
      const leases = await Promise.all(Array.from({ length: 10 }, () => store.acquire('run-3')));
      const outcomes = await Promise.allSettled(leases.map((lease, index) => store.save(lease, { ...CHECKPOINT, state: { writer: index } })));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const newest = leases.reduce((best, lease) => (lease.fence > best.fence ? lease : best));
      expect((await store.load('run-3'))?.state).toEqual({ writer: leases.indexOf(newest) });
    });

    it('acquires at a version only while the checkpoint still has it, leaving the owner as it was otherwise', async () => {
      const store = makeStore();
      expect(store.acquireAt).toBeTypeOf('function');
      const acquireAt = (store.acquireAt as NonNullable<RunStore['acquireAt']>).bind(store);
      expect(await acquireAt('run-5', 1)).toBeUndefined();
      const first = await store.acquire('run-5');
      const written = await store.save(first, CHECKPOINT);
      expect(await acquireAt('run-5', written.version + 1)).toBeUndefined();
      // The refused acquire made no owner: the first one still writes.
      const again = await store.save(first, CHECKPOINT);
      const taken = await acquireAt('run-5', again.version);
      expect(taken?.fence).toBeGreaterThan(first.fence);
      expect(StaleRunOwnerError.isInstance(await store.save(first, CHECKPOINT).catch((error: unknown) => error))).toBe(true);
      const concurrent = await Promise.all(Array.from({ length: 5 }, () => acquireAt('run-5', again.version)));
      expect(concurrent.every((lease) => lease !== undefined)).toBe(true);
    });

    it('spends a claim once, also under concurrent claims, and again only after its time', async () => {
      const store = makeStore();
      const claims = await Promise.all(Array.from({ length: 20 }, () => store.claim('suspension-1', 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.claim('suspension-1', 60_000)).toBe(false);
      expect(await store.claim('short', 1)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await store.claim('short', 1)).toBe(true);
      await store.release('suspension-1');
      expect(await store.claim('suspension-1', 60_000)).toBe(true);
    });

    it('keeps runs apart whatever their ids hold', async () => {
      const store = makeStore();
      const ids = ['{a}', 'a', '#a', 'x'.repeat(500), 'ünï 🎉', 'run:1'];
      for (const id of ids) await store.save(await store.acquire(id), { ...CHECKPOINT, state: { id } });
      for (const id of ids) expect((await store.load(id))?.state).toEqual({ id });
    });

    it('refuses bad input with a TypeError and writes nothing', async () => {
      const store = makeStore();
      await expect(store.acquire('')).rejects.toThrow(TypeError);
      await expect(store.claim('', 10)).rejects.toThrow(TypeError);
      const lease = await store.acquire('run-4');
      await expect(store.save(lease, { ...CHECKPOINT, state: { big: 10n } })).rejects.toThrow(TypeError);
      expect(await store.load('run-4')).toBeUndefined();
    });
  });
}
