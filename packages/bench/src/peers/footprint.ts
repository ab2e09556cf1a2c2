import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { summarise } from '../measure';

/** The part of esbuild's API used here (esbuild comes with tsup, so it is loaded through tsup). */
interface EsbuildApi {
  build(options: {
    stdin: { contents: string; resolveDir: string; loader: 'js' };
    bundle: true;
    minify: true;
    format: 'esm';
    platform: 'node';
    write: false;
    logLevel: 'silent';
  }): Promise<{ outputFiles: { contents: Uint8Array }[] }>;
}

const benchDir = fileURLToPath(new URL('../..', import.meta.url));
const keelDist = ['core', 'reliability'].map((name) => fileURLToPath(new URL(`../../node_modules/@keel/${name}/dist/index.js`, import.meta.url)));

/** What each contender's import and bundle entry is. */
const contenders = {
  keel: {
    label: 'Keel (`@keel/core` + `@keel/reliability`)',
    importCode: "Promise.all([import('@keel/core'), import('@keel/reliability')])",
    entry: "export * from '@keel/core';\nexport * from '@keel/reliability';\n",
  },
  ai: {
    label: 'AI SDK (`ai` v6)',
    importCode: "import('ai')",
    entry: "export * from 'ai';\n",
  },
} as const;
type Name = keyof typeof contenders;

/** Footprint of one package set. */
export interface PackageFootprint {
  /** Median wall time of a child `node -e "import(...)"`, in ms. */
  readonly importMs: number;
  /** The same minus a bare `node -e 0` start (the import's own cost), in ms. */
  readonly importNetMs: number;
  readonly importMinMs: number;
  readonly importMaxMs: number;
  /** esbuild bundle + minify of the public API, ESM, platform node, nothing external. */
  readonly minifiedKb: number;
  readonly gzipKb: number;
}

export interface FootprintResult {
  readonly runs: number;
  /** Median wall time of `node -e 0`, in ms. */
  readonly nodeStartMs: number;
  readonly keel: PackageFootprint;
  readonly ai: PackageFootprint;
  readonly markdown: string;
}

function timeChild(code: string): number {
  const started = performance.now();
  // No `--conditions=@keel/source`: packages resolve to their built dist, as users get them.
  const child = spawnSync(process.execPath, ['-e', code], { cwd: benchDir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  const elapsed = performance.now() - started;
  if (child.status !== 0) throw new Error(`node -e "${code}" failed: ${child.stderr.toString().slice(0, 500)}`);
  return elapsed;
}

async function bundleSize(esbuild: EsbuildApi, entry: string): Promise<{ minifiedKb: number; gzipKb: number }> {
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: benchDir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.length, 0);
  const gzip = result.outputFiles.reduce((sum, file) => sum + gzipSync(file.contents).length, 0);
  return { minifiedKb: bytes / 1024, gzipKb: gzip / 1024 };
}

/**
 * Cold import time (child processes, `runs` each, order rotated, median wall time) and minified
 * ESM size of Keel's built dist against the AI SDK. Needs `pnpm build` first.
 */
export async function measureFootprint(options: { runs?: number } = {}): Promise<FootprintResult> {
  const runs = options.runs ?? 5;
  for (const file of keelDist) if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm build\` before measuring the footprint`);
  const names = Object.keys(contenders) as Name[];
  const samples = { node: [] as number[], keel: [] as number[], ai: [] as number[] };
  timeChild('0'); // warm the file cache once for all alike
  for (const name of names) timeChild(contenders[name].importCode);
  for (let round = 0; round < runs; round++) {
    const order = ['node', ...names] as const;
    for (let offset = 0; offset < order.length; offset++) {
      const name = order[(round + offset) % order.length] as (typeof order)[number];
      samples[name].push(timeChild(name === 'node' ? '0' : contenders[name].importCode));
    }
  }
  const require = createRequire(import.meta.url);
  const esbuild = createRequire(require.resolve('tsup'))('esbuild') as EsbuildApi;
  const nodeStartMs = summarise(samples.node).medianUs;
  const footprint = async (name: Name): Promise<PackageFootprint> => {
    const timing = summarise(samples[name]);
    return { importMs: timing.medianUs, importNetMs: timing.medianUs - nodeStartMs, importMinMs: timing.minUs, importMaxMs: timing.maxUs, ...(await bundleSize(esbuild, contenders[name].entry)) };
  };
  const keel = await footprint('keel');
  const ai = await footprint('ai');
  const row = (name: Name, value: PackageFootprint) =>
    `| ${contenders[name].label} | ${value.importMs.toFixed(0)} ms (${value.importMinMs.toFixed(0)} – ${value.importMaxMs.toFixed(0)}) | ${value.importNetMs.toFixed(0)} ms | ${value.minifiedKb.toFixed(1)} KB | ${value.gzipKb.toFixed(1)} KB |`;
  const markdown = `## Footprint: cold import and bundle size

Cold import: a fresh \`node -e "import(…)"\` child process per sample, ${runs} samples each (order
rotated), median wall time; "net" subtracts a bare \`node -e 0\` (${nodeStartMs.toFixed(0)} ms). Keel is
its built dist (\`pnpm build\`). Size: esbuild bundle + minify of an entry re-exporting the whole
public API, ESM, platform node, no externals (dependencies included).

| package | cold import, median (min – max) | net of node start | minified | gzip |
| --- | --- | --- | --- | --- |
${row('keel', keel)}
${row('ai', ai)}

- Keel / AI SDK: import ${(keel.importNetMs / ai.importNetMs).toFixed(2)}x (net), size ${(keel.minifiedKb / ai.minifiedKb).toFixed(2)}x.
`;
  return { runs, nodeStartMs, keel, ai, markdown };
}
