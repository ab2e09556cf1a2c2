import { defineConfig } from 'tsup';

const shared = { dts: { compilerOptions: { customConditions: [] } }, sourcemap: true, target: 'node20' } as const;

export default defineConfig([
  { ...shared, entry: ['src/index.ts'], format: ['esm', 'cjs'], clean: true },
  // The `keel-eval` command: ESM only, run by Node through the package's `bin`.
  { ...shared, entry: { 'cli/keel-eval': 'src/cli/keel-eval.ts' }, format: ['esm'], dts: false, banner: { js: '#!/usr/bin/env node' } },
]);
