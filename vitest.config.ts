import { configDefaults, defineConfig } from 'vitest/config';

const sourceCondition = ['@keel/source', 'import', 'module', 'node', 'default'];

/** Room for a machine busy with other work: a test that hangs still fails, a slow one does not. */
const standard = { testTimeout: 20_000, hookTimeout: 20_000 };

/** One project per package; workspace imports resolve to TypeScript sources, so no build is needed. */
const project = (name: string, timeouts: { testTimeout?: number; hookTimeout?: number } = standard, conditions = sourceCondition) => ({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@keel/source'] } },
  test: {
    name,
    root: `packages/${name}`,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node' as const,
    ...timeouts,
  },
});

/**
 * Without `import`, which the test workers would pass to Node as a condition for `require` too:
 * a CommonJS package that requires a dual package (pg requires pg-pool) must get its CommonJS build.
 */
const requireSafeCondition = sourceCondition.filter((condition) => condition !== 'import');

/** Fleet tests start redis-server and worker processes: generous bounds, so a loaded machine never fails them. */
const fleet = { testTimeout: 30_000, hookTimeout: 30_000 };

/** The examples whose tests load pg (DBOS requires it): CommonJS resolution, as the postgres tests. */
const postgresExamples = ['src/dbos-workflow.test.ts'];

/** The viewer's tests start Chromium: room for a loaded machine. */
const browser = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    projects: [project('reliability'), project('provider'), project('core'), project('providers'), project('redis', fleet), project('postgres', fleet, requireSafeCondition), project('dbos', fleet, requireSafeCondition), project('bullmq', fleet), project('otel'), project('devtools', browser), project('ai-sdk'), project('wire-server'), project('mcp', fleet), project('evals'), {
      ...project('examples'),
      test: { ...project('examples').test, root: 'examples', exclude: [...configDefaults.exclude, ...postgresExamples] },
    }, {
      ...project('examples', fleet, requireSafeCondition),
      test: { ...project('examples', fleet, requireSafeCondition).test, name: 'examples-postgres', root: 'examples', include: postgresExamples },
    }],
  },
});
