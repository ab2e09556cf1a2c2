import { defineConfig } from 'vitest/config';

const sourceCondition = ['@keel/source', 'import', 'module', 'node', 'default'];

/** One project per package; workspace imports resolve to TypeScript sources, so no build is needed. */
const project = (name: string) => ({
  resolve: { conditions: sourceCondition },
  ssr: { resolve: { conditions: sourceCondition, externalConditions: ['@keel/source'] } },
  test: {
    name,
    root: `packages/${name}`,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node' as const,
  },
});

export default defineConfig({
  test: {
    projects: [project('reliability'), project('core'), project('providers'), project('redis'), project('bullmq'), project('otel'), {
      ...project('examples'),
      test: { ...project('examples').test, root: 'examples' },
    }],
  },
});
