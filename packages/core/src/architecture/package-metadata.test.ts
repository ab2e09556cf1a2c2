import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const readJson = (path: string) => JSON.parse(readFileSync(`${root}${path}`, 'utf8')) as Record<string, unknown>;

/** The repository every link and field points at: the root package.json's. */
const repository = readJson('package.json')['repository'] as { url: string };
const base = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

const published = readdirSync(`${root}packages`)
  .filter((folder) => existsSync(`${root}packages/${folder}/package.json`))
  .map((folder) => ({ folder: `packages/${folder}`, manifest: readJson(`packages/${folder}/package.json`) }))
  .filter(({ manifest }) => manifest['private'] !== true);

describe('what the registry shows of each published package', () => {
  it('finds the published packages and the repository', () => {
    expect(base).toMatch(/^https:\/\/[^/]+\/[^/]+\/[^/]+$/);
    expect(published.length).toBeGreaterThanOrEqual(10);
  });

  it.each(published.map(({ folder, manifest }) => [manifest['name'] as string, folder, manifest] as const))('%s has repository (with its directory), homepage and bugs', (_name, folder, manifest) => {
    expect(manifest['repository']).toEqual({ type: 'git', url: repository.url, directory: folder });
    expect(manifest['homepage']).toBe(`${base}/tree/main/${folder}#readme`);
    expect(manifest['bugs']).toEqual({ url: `${base}/issues` });
  });

  it.each(published.map(({ folder, manifest }) => [manifest['name'] as string, folder] as const))('%s README links only to absolute addresses or its own anchors', (_name, folder) => {
    const readme = readFileSync(`${root}${folder}/README.md`, 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
    const relative = targets.filter((target) => !/^(https?:\/\/|mailto:|#)/.test(target));
    expect(relative, 'a relative link is dead once the package is in the registry').toEqual([]);
    for (const target of targets.filter((link) => link.startsWith(`${base}/blob/main/`))) {
      const path = target.slice(`${base}/blob/main/`.length).split('#')[0] ?? '';
      expect(existsSync(`${root}${path}`), `${target} names a file of the repository`).toBe(true);
    }
  });
});
