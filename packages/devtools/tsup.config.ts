import { defineConfig } from 'tsup';

export default defineConfig({
  // `cli` is the `keel-devtools` command (dist/cli.js, with its shebang); `trace-worker` the thread
  // that writes trace files (started from dist/ beside the module that starts it); types for the library only.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'trace-worker': 'src/trace/trace-worker.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
  // `import.meta.url` in the CommonJS build too (where the writing thread's file is found).
  shims: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
