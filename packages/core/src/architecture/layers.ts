/**
 * The one direction of imports, as data: the layering tests read the import graph against it and
 * `.oxlintrc.json` enforces the same layers of core's folders while code is written.
 *
 * Layers are listed bottom first. A package imports only packages of a lower layer; a file imports
 * only the units (folders, or top-level files) of its own package's layer or a lower one. A unit is
 * a folder under the package's `src/`, a top-level file named as it is (`defaults.ts`), or `*`: every
 * top-level file no entry names. Tests (`*.test.ts`) and fixtures (`*-fixture.ts`) may import
 * anything in their package: they drive it from the outside.
 */

/** The packages under `packages/`, bottom first, by directory name. */
export const PACKAGE_LAYERS: readonly (readonly string[])[] = [
  ['reliability', 'wire-server'],
  ['provider'],
  ['core'],
  ['providers', 'ai-sdk', 'redis', 'postgres', 'otel', 'mcp', 'devtools', 'dbos'],
  ['bullmq', 'evals'],
  ['bench'],
];

/** Core's layers, bottom first, each with what it holds (docs/architecture.md draws the same). */
export const CORE_LAYERS: readonly (readonly string[])[] = [
  // call wrappers, the agent's defaults
  ['shared', 'defaults.ts'],
  // what the engine and the API share (contracts), and the parts the engine is built of
  ['contracts', 'errors', 'events', 'usage', 'memory', 'tools', 'context'],
  // the run as rules see it
  ['run-view'],
  // the engine
  ['run'],
  // durable runs over a store
  ['durable'],
  // the user API
  ['agent'],
  // built on the API, and the entry points
  ['chat', 'trace', 'index.ts', 'internal.ts'],
  // test support
  ['testing', 'faults', 'runtime', 'architecture'],
];

/** Each package's units under `src/`, bottom first. */
export const FOLDER_LAYERS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  reliability: [
    ['defaults.ts', 'error-kind.ts', 'local-reference.ts', 'read-field.ts', 'usage.ts', 'json'],
    ['classify-error.ts', 'loops'],
    ['backoff.ts', 'race-signal.ts', 'sleep.ts', 'stuck-loop.ts', 'errors', 'validation', 'feedback', 'patch', 'gate', 'rules'],
    ['index.ts', 'internal.ts'],
    ['testing'],
  ],
  'wire-server': [['*']],
  provider: [['spec'], ['kit'], ['errors'], ['*']],
  core: CORE_LAYERS,
  providers: [['errors'], ['shared'], ['anthropic', 'openai'], ['*'], ['testing']],
  'ai-sdk': [['*'], ['testing']],
  redis: [['errors', 'support'], ['redis'], ['backoff', 'budget', 'memory'], ['runs'], ['*'], ['testing']],
  postgres: [['errors'], ['migrations', 'postgres'], ['memory', 'runs'], ['*'], ['testing']],
  otel: [['*'], ['testing']],
  mcp: [['errors'], ['*'], ['testing']],
  devtools: [['errors', 'view'], ['page', 'trace'], ['server'], ['*'], ['testing']],
  dbos: [['*'], ['testing']],
  bullmq: [['*'], ['testing']],
  evals: [['errors'], ['cassette'], ['evaluate', 'scorers'], ['compare'], ['report'], ['cli', '*'], ['testing']],
  bench: [
    ['measure.ts', 'zero-latency-model.ts', 'held-model.ts', 'overhead.ts', 'recovery', 'engine-compare'],
    ['durable', 'fleet', 'independent', 'inflight', 'large-output', 'long-run', 'peers'],
    ['*'],
  ],
};

/** The index of the layer `name` is in, or -1. */
export function layerIndex(layers: readonly (readonly string[])[], name: string): number {
  return layers.findIndex((layer) => layer.includes(name));
}

/** The layer of the unit a path under a package's `src/` belongs to (`run/steps/end.ts` → run's), or -1. */
export function unitLayer(layers: readonly (readonly string[])[], pathInSrc: string): number {
  const [first = '', ...rest] = pathInSrc.split(/[\\/]/);
  if (rest.length > 0) return layerIndex(layers, first);
  const named = layerIndex(layers, first);
  return named === -1 ? layerIndex(layers, '*') : named;
}
