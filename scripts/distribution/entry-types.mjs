/**
 * Every public entry point of every packed package typechecks in a fresh project that installed the
 * tarballs: one file imports each of them and uses every export's type, and is compiled with
 * `strict`, `skipLibCheck: false` (every published declaration file it reaches is checked, so a
 * type it names must come from a dependency the package declares, never from a dev-only one) and
 * no ambient types (`types: []`: only what the declarations reference themselves), under
 * `moduleResolution` nodenext (ESM and CommonJS) and bundler, with the default `lib`, and once as
 * a Node project without the DOM's types (`lib: ES2022` and Node's types).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A module that imports every entry point and names each export, so each declaration is read. */
function probeOf(specifiers) {
  const imports = specifiers.map((specifier, index) => `import * as entry${index} from '${specifier}';`);
  const uses = specifiers.map((_, index) => `export type Entry${index} = typeof entry${index};\nexport const entry${index}Keys: (keyof typeof entry${index})[] = Object.keys(entry${index}) as (keyof typeof entry${index})[];`);
  return `${imports.join('\n')}\n${uses.join('\n')}\n`;
}

export function checkEntryTypes({ root, app, bin, env, specifiers, fail }) {
  const folder = join(app, 'entry-types');
  mkdirSync(join(folder, 'cjs'), { recursive: true });
  writeFileSync(join(folder, 'entries.mts'), probeOf(specifiers));
  writeFileSync(join(folder, 'cjs', 'entries.cts'), probeOf(specifiers));
  // No `types`: only what the declarations reference. The default `lib` (the DOM's globals), or a Node project's: ES2022 and Node's types.
  const strict = { strict: true, skipLibCheck: false, noEmit: true, target: 'ES2022', types: [], exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true };
  const node = { lib: ['ES2022'], types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] };
  const both = ['entry-types/entries.mts', 'entry-types/cjs/entries.cts'];
  const configs = {
    nodenext: { compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext' }, files: both },
    'nodenext, Node types and no DOM': { compilerOptions: { ...strict, ...node, module: 'nodenext', moduleResolution: 'nodenext' }, files: both },
    bundler: { compilerOptions: { ...strict, module: 'esnext', moduleResolution: 'bundler' }, files: ['entry-types/entries.mts'] },
  };
  for (const [resolution, config] of Object.entries(configs)) {
    const file = `tsconfig.entries.${resolution.replace(/\W+/g, '-')}.json`;
    writeFileSync(join(app, file), JSON.stringify(config));
    const compiled = spawnSync(bin('tsc'), ['-p', file], { cwd: app, env, encoding: 'utf8' });
    if (compiled.status !== 0) fail(`the published types of the entry points do not compile with moduleResolution ${resolution} (strict, skipLibCheck off):\n${compiled.stdout}${compiled.stderr}`);
  }
  console.log(`✓ every entry point's published types compile (strict, skipLibCheck off): ${Object.keys(configs).join('; ')} (${specifiers.length} entry points, ESM and CommonJS)`);
}

// On its own, against a project that installed the tarballs: node scripts/distribution/entry-types.mjs <app> <specifier>...
if (import.meta.url === `file://${process.argv[1]}`) {
  const [app, ...specifiers] = process.argv.slice(2);
  const root = join(new URL('.', import.meta.url).pathname, '..', '..');
  checkEntryTypes({
    root,
    app,
    bin: (name) => join(root, 'node_modules', '.bin', name),
    env: process.env,
    specifiers,
    fail: (message) => {
      console.error(`✗ ${message}`);
      process.exit(1);
    },
  });
}
