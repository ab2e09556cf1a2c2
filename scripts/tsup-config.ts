import { defineConfig } from 'tsup';

/**
 * How every published package is built: ESM and CommonJS with declarations (resolved without the
 * `@keel/source` condition, so they point at other packages' built types), source maps, Node 20.
 * Each package names only its entry points.
 */
export function packageBuild(entry: readonly string[]) {
  return defineConfig({
    entry: [...entry],
    format: ['esm', 'cjs'],
    dts: { compilerOptions: { customConditions: [] } },
    clean: true,
    sourcemap: true,
    target: 'node20',
  });
}
