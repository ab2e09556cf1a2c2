import { describe, expect, it } from 'vitest';
import { StaleRunOwnerError } from '../errors/stale-run-owner-error';
import type { RunAppend, RunStore } from '../contracts/run-store';

const entry = (seq: number, extra: Record<string, unknown> = {}) => ({ seq, type: 'step', runId: 'r', messages: [{ role: 'user', content: `turn ${seq}` }], ...extra });
const APPEND: RunAppend = { agentId: 'refunds', status: 'running', entries: [entry(0)] };

/** What every {@link RunStore} promises, run against one store implementation. */
export function describeRunStore(name: string, makeStore: () => RunStore | Promise<RunStore>): void {
  describe(`${name} (run store contract)`, () => {
    it('appends entries in order, raising the version by the number appended, as JSON', async () => {
      const store = await makeStore();
      expect(typeof store.shared).toBe('boolean');
      expect(await store.load('run-1')).toBeUndefined();
      const lease = await store.acquire('run-1');
      expect(await store.append(lease, APPEND)).toBe(1);
      expect(await store.append(lease, { agentId: 'refunds', tenant: 'acme', status: 'complete', entries: [entry(1), entry(2, { note: 'ünï 🎉' })] })).toBe(3);
      expect(await store.load('run-1')).toEqual({ runId: 'run-1', agentId: 'refunds', tenant: 'acme', status: 'complete', entries: [entry(0), entry(1), entry(2, { note: 'ünï 🎉' })], version: 3 });
    });

    it('keeps each entry byte for byte as JSON wrote it (key order included)', async () => {
      const store = await makeStore();
      const lease = await store.acquire('run-order');
      const odd = { z: 1, a: { y: [1, 2.5, 'x'], b: null }, seq: 0 };
      await store.append(lease, { agentId: 'refunds', status: 'running', entries: [odd] });
      const loaded = await store.load('run-order');
      expect(JSON.stringify(loaded?.entries[0])).toBe(JSON.stringify(odd));
    });

    it('sets only the status with an append of no entries', async () => {
      const store = await makeStore();
      const lease = await store.acquire('run-status');
      await store.append(lease, APPEND);
      expect(await store.append(lease, { agentId: 'refunds', status: 'failed', entries: [] })).toBe(1);
      expect(await store.load('run-status')).toMatchObject({ status: 'failed', version: 1 });
    });

    it('refuses the append of an owner a newer one replaced, writing nothing', async () => {
      const store = await makeStore();
      const stale = await store.acquire('run-2');
      await store.append(stale, APPEND);
      const fresh = await store.acquire('run-2');
      expect(fresh.fence).toBeGreaterThan(stale.fence);
      const refused = await store.append(stale, { ...APPEND, entries: [entry(99)] }).catch((error: unknown) => error);
      expect(StaleRunOwnerError.isInstance(refused)).toBe(true);
      expect((await store.load('run-2'))?.entries).toEqual([entry(0)]);
      await store.append(fresh, { ...APPEND, entries: [entry(1)] });
      expect((await store.load('run-2'))?.entries).toEqual([entry(0), entry(1)]);
    });

    it('lets exactly one of many concurrent owners append once all have acquired', async () => {
      const store = await makeStore();
      const leases = await Promise.all(Array.from({ length: 10 }, () => store.acquire('run-3')));
      const outcomes = await Promise.allSettled(leases.map((lease, index) => store.append(lease, { ...APPEND, entries: [entry(0, { writer: index })] })));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const newest = leases.reduce((best, lease) => (lease.fence > best.fence ? lease : best));
      expect((await store.load('run-3'))?.entries).toEqual([entry(0, { writer: leases.indexOf(newest) })]);
    });

    it('acquires at a version only while the journal still has it, leaving the owner as it was otherwise', async () => {
      const store = await makeStore();
      expect(await store.acquireAt('run-5', 1)).toBeUndefined();
      const first = await store.acquire('run-5');
      const version = await store.append(first, APPEND);
      expect(await store.acquireAt('run-5', version + 1)).toBeUndefined();
      // The refused acquire made no owner: the first one still appends.
      const again = await store.append(first, { ...APPEND, entries: [entry(1)] });
      const taken = await store.acquireAt('run-5', again);
      expect(taken?.fence).toBeGreaterThan(first.fence);
      expect(StaleRunOwnerError.isInstance(await store.append(first, APPEND).catch((error: unknown) => error))).toBe(true);
      const concurrent = await Promise.all(Array.from({ length: 5 }, () => store.acquireAt('run-5', again)));
      expect(concurrent.every((lease) => lease !== undefined)).toBe(true);
    });

    it('spends a claim once, also under concurrent claims, and again only after its time', async () => {
      const store = await makeStore();
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
      const store = await makeStore();
      const ids = ['{a}', 'a', '#a', 'x'.repeat(500), 'ünï 🎉', 'run:1'];
      for (const id of ids) await store.append(await store.acquire(id), { ...APPEND, entries: [{ id }] });
      for (const id of ids) expect((await store.load(id))?.entries).toEqual([{ id }]);
    });

    it('refuses bad input with a TypeError and writes nothing', async () => {
      const store = await makeStore();
      await expect(store.acquire('')).rejects.toThrow(TypeError);
      await expect(store.claim('', 10)).rejects.toThrow(TypeError);
      const lease = await store.acquire('run-4');
      await expect(store.append(lease, { ...APPEND, entries: [entry(0), { big: 10n }] })).rejects.toThrow(TypeError);
      await expect(store.append(lease, { ...APPEND, entries: 'nope' as never })).rejects.toThrow(TypeError);
      expect(await store.load('run-4')).toBeUndefined();
    });
  });
}

/** What two stores on one backend (two workers of a fleet) share: fences, journals and claims. */
export async function expectSharedStores(first: RunStore, second: RunStore): Promise<void> {
  const append: RunAppend = { agentId: 'a', status: 'running', entries: [{ seq: 0 }] };
  expect(first.shared).toBe(true);
  const stale = await first.acquire('shared');
  await first.append(stale, append);
  const fresh = await second.acquireAt('shared', 1);
  expect(fresh).toBeDefined();
  await expect(first.append(stale, { ...append, entries: [{ seq: 1 }] })).rejects.toSatisfy(StaleRunOwnerError.isInstance);
  expect(await second.append(fresh as NonNullable<typeof fresh>, { ...append, tenant: 'acme', status: 'complete', entries: [{ seq: 1 }] })).toBe(2);
  expect(await first.load('shared')).toEqual({ runId: 'shared', agentId: 'a', tenant: 'acme', status: 'complete', entries: [{ seq: 0 }, { seq: 1 }], version: 2 });
  expect(await first.claim('approval', 60_000)).toBe(true);
  expect(await second.claim('approval', 60_000)).toBe(false);
}
