import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', internal: 'src/internal.ts', 'test/index': 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
