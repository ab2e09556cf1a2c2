import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isTestSupport, resolveRelative, sourceFiles, specifiersOf } from './import-graph';
import { layerIndex, unitLayer } from './layers';

type Layers = readonly (readonly string[])[];

/** The package directory and the path under its `src/` of a file of `base`. */
function placeOf(base: string, file: string): { readonly pkg: string; readonly inSrc: string } | undefined {
  const [packages, pkg, src, ...rest] = relative(base, file).split(sep);
  return packages === 'packages' && pkg !== undefined && src === 'src' && rest.length > 0 ? { pkg, inSrc: rest.join('/') } : undefined;
}

/** The packages of `base` that have a `src/` folder. */
function packagesOf(base: string): string[] {
  return readdirSync(join(base, 'packages')).filter((name) => existsSync(join(base, 'packages', name, 'src')));
}

/** What no layer names: packages, folders and top-level files that exist, and names of the tables that do not. */
export function unplaced(base: string, packageLayers: Layers, folderLayers: Readonly<Record<string, Layers>>): string[] {
  const problems: string[] = [];
  for (const pkg of packagesOf(base)) {
    if (layerIndex(packageLayers, pkg) === -1) problems.push(`package ${pkg} is in no package layer`);
    const layers = folderLayers[pkg];
    if (!layers) {
      problems.push(`package ${pkg} has no folder layers`);
      continue;
    }
    const src = join(base, 'packages', pkg, 'src');
    const entries = readdirSync(src).filter((name) => statSync(join(src, name)).isDirectory() || (/\.[cm]?[jt]sx?$/.test(name) && !isTestSupport(name)));
    for (const name of entries) if (unitLayer(layers, name.includes('.') ? name : `${name}/`) === -1) problems.push(`packages/${pkg}/src/${name} is in no layer`);
    for (const name of layers.flat()) if (name !== '*' && !entries.includes(name)) problems.push(`packages/${pkg}/src/${name} is named in a layer but does not exist`);
  }
  return problems;
}

/** Each import of a file that reaches a unit of a higher layer of its package. */
export function upwardImports(base: string, folderLayers: Readonly<Record<string, Layers>>): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(base).filter((path) => !isTestSupport(path))) {
    const from = placeOf(base, file);
    const layers = from && folderLayers[from.pkg];
    if (!from || !layers) continue;
    const own = unitLayer(layers, from.inSrc);
    for (const specifier of specifiersOf(file).filter((name) => name.startsWith('.'))) {
      const target = resolveRelative(file, specifier);
      const to = target && placeOf(base, target);
      if (!to || to.pkg !== from.pkg) continue;
      const layer = unitLayer(layers, to.inSrc);
      if (layer > own) problems.push(`packages/${from.pkg}/src/${from.inSrc} (layer ${own}) imports ${to.inSrc} (layer ${layer})`);
    }
  }
  return problems;
}

/** Each import of a Keel package, and each Keel dependency in a package.json, that is not of a lower package layer. */
export function upwardPackages(base: string, packageLayers: Layers): string[] {
  const problems: string[] = [];
  const check = (pkg: string, imported: string, where: string): void => {
    const name = imported.split('/')[1] ?? '';
    if (name !== pkg && !(layerIndex(packageLayers, name) < layerIndex(packageLayers, pkg))) problems.push(`${where} (${pkg}) imports @keel/${name}, which is not below it`);
  };
  for (const file of sourceFiles(base)) {
    const from = placeOf(base, file);
    if (from) for (const specifier of specifiersOf(file).filter((name) => name.startsWith('@keel/'))) check(from.pkg, specifier, relative(base, file));
  }
  for (const pkg of packagesOf(base)) {
    const manifest = JSON.parse(readFileSync(join(base, 'packages', pkg, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const names = ['dependencies', 'peerDependencies', 'devDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {}));
    for (const name of names.filter((dependency) => dependency.startsWith('@keel/'))) check(pkg, name, `packages/${pkg}/package.json`);
  }
  return problems;
}
