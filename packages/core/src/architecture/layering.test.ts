import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { unplaced, upwardImports, upwardPackages } from './layer-check';
import { FOLDER_LAYERS, PACKAGE_LAYERS } from './layers';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('layers of the repository (architecture/layers.ts)', () => {
  it('places every package, and every folder and top-level file of each package, in a layer', () => {
    expect(unplaced(root, PACKAGE_LAYERS, FOLDER_LAYERS)).toEqual([]);
  });

  it('no file imports a folder of a higher layer of its package', () => {
    expect(upwardImports(root, FOLDER_LAYERS)).toEqual([]);
  });

  it('no package imports a package of its own layer or above, in its sources or its package.json', () => {
    expect(upwardPackages(root, PACKAGE_LAYERS)).toEqual([]);
  });
});

/** A throwaway repository of two packages, with a violation of each kind. */
const house = mkdtempSync(join(tmpdir(), 'keel-layers-'));
afterAll(() => rmSync(house, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(house, path)), { recursive: true });
  writeFileSync(join(house, path), text);
}

describe('the layer checks find what they look for', () => {
  const packages = [['low'], ['high']];
  const folders = { low: [['base'], ['engine'], ['*']], high: [['*']] };
  write('packages/low/package.json', JSON.stringify({ name: '@keel/low', dependencies: { '@keel/high': '1' } }));
  write('packages/high/package.json', JSON.stringify({ name: '@keel/high', dependencies: { '@keel/low': '1' } }));
  write('packages/low/src/engine/run.ts', 'export const run = 1;\n');
  write('packages/low/src/base/part.ts', "import type { run } from '../engine/run';\nexport type Part = typeof run;\n");
  write('packages/low/src/base/part.test.ts', "import { run } from '../engine/run';\nexport const probe = run;\n");
  write('packages/low/src/index.ts', "import { high } from '@keel/high';\nexport const low = high;\n");
  write('packages/low/src/extra/new.ts', 'export const placed = false;\n');
  write('packages/high/src/index.ts', "import { low } from '@keel/low';\nexport const high = low;\n");

  it('a folder or package no layer names, and a name of the table that does not exist', () => {
    expect(unplaced(house, [['low']], { low: [['base'], ['engine'], ['gone']] })).toEqual([
      'package high is in no package layer',
      'package high has no folder layers',
      'packages/low/src/extra is in no layer',
      'packages/low/src/index.ts is in no layer',
      'packages/low/src/gone is named in a layer but does not exist',
    ]);
  });

  it('a type-only import of a higher folder; a test may import anything', () => {
    expect(upwardImports(house, folders)).toEqual(['packages/low/src/base/part.ts (layer 0) imports engine/run.ts (layer 1)']);
  });

  it('a package importing, or depending on, a package above it', () => {
    expect(upwardPackages(house, packages)).toEqual([
      'packages/low/src/index.ts (low) imports @keel/high, which is not below it',
      'packages/low/package.json (low) imports @keel/high, which is not below it',
    ]);
  });
});
