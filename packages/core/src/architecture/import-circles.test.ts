import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCircle, importGraph, sourceFiles } from './import-graph';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('import circles (packages/*/src)', () => {
  it('no source file reaches itself through relative imports, type-only imports included', () => {
    const circle = findCircle(importGraph(sourceFiles(root)));
    expect(circle?.map((file) => relative(root, file)).join(' -> ')).toBeUndefined();
  });

  it('the scan finds a circle closed by a type-only import, and names its files', () => {
    const house = mkdtempSync(join(tmpdir(), 'keel-circles-'));
    try {
      mkdirSync(join(house, 'packages/circle/src'), { recursive: true });
      writeFileSync(join(house, 'packages/circle/src/agent.ts'), "import { Builder } from './builder';\nexport class Agent { static create = (): Builder => new Builder(); }\n");
      writeFileSync(join(house, 'packages/circle/src/builder.ts'), "import type { Agent } from './agent';\nexport class Builder { agent?: Agent; }\n");
      const circle = findCircle(importGraph(sourceFiles(house)));
      expect(circle?.map((file) => relative(house, file))).toEqual(['packages/circle/src/agent.ts', 'packages/circle/src/builder.ts', 'packages/circle/src/agent.ts']);
    } finally {
      rmSync(house, { recursive: true, force: true });
    }
  });
});
