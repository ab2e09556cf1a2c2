import { defineConfig } from 'tsup';

export default defineConfig({
  // `cli` is the `keel-devtools` command (dist/cli.js, with its shebang); types for the library only.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
