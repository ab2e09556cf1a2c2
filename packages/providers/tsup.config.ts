import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/anthropic/index.ts', 'src/openai/index.ts'],
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
