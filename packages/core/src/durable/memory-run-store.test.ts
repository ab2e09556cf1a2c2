import { expect, it } from 'vitest';
import { memoryRunStore } from './memory-run-store';
import { describeRunStore } from './run-store-contract-fixture';

describeRunStore('memoryRunStore', memoryRunStore);

it('remembers 20,000 spent claims (never forgets by count)', async () => {
  const store = memoryRunStore();
  for (let index = 0; index < 20_000; index++) await store.claim(`s-${index}`, 60_000);
  expect(await store.claim('s-0', 60_000)).toBe(false);
});
