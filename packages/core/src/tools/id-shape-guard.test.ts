import { describe, expect, it } from 'vitest';
import { idShapeGuard } from './id-shape-guard';

describe('idShapeGuard', () => {
  it('gives the same verdict on every call, even with a global pattern', () => {
    const guard = idShapeGuard({ fields: ['id'], pattern: /^[a-f0-9]{8}$/g });
    expect([1, 2, 3].map(() => guard('t', { id: 'deadbeef' }))).toEqual([undefined, undefined, undefined]);
  });
});
