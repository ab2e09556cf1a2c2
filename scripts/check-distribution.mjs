#!/usr/bin/env node
/**
 * Checks what users install, as they install it. Run after `pnpm build`:
 *  1. packs every public package (`pnpm pack`: workspace ranges and publishConfig applied) and
 *     checks the packed package.json has no source condition and ships README, LICENSE, engines;
 *  2. lints each tarball with `publint --strict` and `attw` (every resolution profile, node10 too);
 *  3. installs the tarballs into a fresh project with one provider SDK only and runs an ESM and a
 *     CommonJS agent (scripted, then OpenAI over a local server; Anthropic reports its SDK missing);
 *  3b. installs what the READMEs tell users to (no peer dependency warning allowed), typechecks every
 *     example of the package READMEs and the first docs against the tarballs (strict, skipLibCheck
 *     off; nodenext, bundler, node10) and runs the offline ones (scripts/distribution/doc-examples.mjs),
 *     checks that no public type of any entry point resolves to any (scripts/distribution/no-any.mjs)
 *     and that a file importing every entry point compiles (strict, skipLibCheck off, no ambient
 *     types; nodenext ESM and CommonJS, bundler, a Node project without the DOM's types:
 *     scripts/distribution/entry-types.mjs),
 *     runs the keel-eval and keel-devtools commands as installed (scripts/distribution/bins.mjs),
 *     then runs a job on a worker with redisMemory and sharedBudget on the app's own ioredis and
 *     bullmq, against a local redis-server, and an agent over a stdio MCP server with @keel/mcp on
 *     the app's own @modelcontextprotocol/sdk, and an agent on @keel/ai-sdk with @ai-sdk/google against
 *     a local Gemini server;
 *  4. bundles core + reliability from that install for the browser (any Node built-in fails the
 *     build) and runs the bundle where code generation is forbidden, on Node and on Deno;
 *  5. bundles the offline demo and runs it on Bun and Deno (installed from npm).
 * Only package installs use the network.
 */
import { execFileSync, spawn } from 'node:child_process';
import { builtinModules } from 'node:module';
import { connect, createServer as createNetServer } from 'node:net';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkBins } from './distribution/bins.mjs';
import { checkDocExamples } from './distribution/doc-examples.mjs';
import { checkEntryTypes } from './distribution/entry-types.mjs';
import { checkNoAny } from './distribution/no-any.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'scripts', 'distribution');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const work = mkdtempSync(join(tmpdir(), 'keel-distribution-'));
const RUNTIMES = { bun: '1.4.5', deno: '2.9.6' };
// No key may turn the offline checks into live calls.
const env = { ...process.env };
for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete env[name];

function run(command, args, options = {}) {
  return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', env, ...options });
}
function step(title) {
  console.log(`\n── ${title}`);
}
function fail(message) {
  console.error(`✗ ${message}`);
  process.exit(1);
}

// 1. Pack.
step('pack');
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const packages = readdirSync(join(root, 'packages'))
  .map((folder) => join(root, 'packages', folder))
  .filter((folder) => existsSync(join(folder, 'package.json')) && !JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).private);
const packed = new Map();
for (const folder of packages) {
  const file = run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: folder }).trim().split('\n').at(-1);
  const unpacked = join(work, 'unpacked', folder.split('/').at(-1));
  mkdirSync(unpacked, { recursive: true });
  run('tar', ['-xzf', file, '-C', unpacked]);
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));
  if (JSON.stringify(manifest.exports ?? {}).includes('@keel/source')) fail(`${manifest.name}: the packed exports still carry the @keel/source condition`);
  if (JSON.stringify(manifest).includes('workspace:')) fail(`${manifest.name}: a workspace: range was published`);
  for (const shipped of ['README.md', 'LICENSE', 'dist']) if (!existsSync(join(unpacked, 'package', shipped))) fail(`${manifest.name}: ${shipped} is not in the tarball`);
  if (!manifest.engines?.node) fail(`${manifest.name}: no engines.node`);
  packed.set(manifest.name, { file, folder: join(unpacked, 'package') });
  console.log(`✓ ${manifest.name}: ${file.split('/').at(-1)}`);
}

// 2. Lint the tarballs.
step('publint --strict and attw');
for (const [name, { file, folder }] of packed) {
  run(bin('publint'), ['--strict', '--pack', 'false', folder], { stdio: ['ignore', 'ignore', 'inherit'] });
  run(bin('attw'), ['--format', 'ascii', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`✓ ${name}`);
}

// 3. A fresh project with the tarballs and one provider SDK.
step('fresh project from the tarballs (ESM and CommonJS)');
const app = join(work, 'app');
mkdirSync(app);
const local = Object.fromEntries([...packed].map(([name, { file }]) => [name, `file:${file}`]));
const rootManifest = JSON.parse(readFileSync(join(root, 'packages', 'core', 'package.json'), 'utf8'));
const providersManifest = JSON.parse(readFileSync(join(root, 'packages', 'providers', 'package.json'), 'utf8'));
const postgresManifest = JSON.parse(readFileSync(join(root, 'packages', 'postgres', 'package.json'), 'utf8'));
writeFileSync(
  join(app, 'package.json'),
  JSON.stringify({
    name: 'keel-distribution-app',
    private: true,
    type: 'module',
    // node-postgres ships no types: a TypeScript app installs @types/pg beside it, as its README says.
    dependencies: { ...local, '@sinclair/typebox': rootManifest.dependencies['@sinclair/typebox'], openai: providersManifest.peerDependencies.openai, '@types/pg': postgresManifest.devDependencies['@types/pg'] },
    // The tarballs depend on each other by version: resolve those to the tarballs, not the registry.
    overrides: local,
  }),
);
run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
if (existsSync(join(app, 'node_modules', '@anthropic-ai', 'sdk'))) fail('@anthropic-ai/sdk was installed though no one asked for it');
cpSync(join(fixtures, 'app.mjs'), join(app, 'app.mjs'));
cpSync(join(fixtures, 'app.cjs'), join(app, 'app.cjs'));
console.log(run('node', ['app.mjs'], { cwd: app }).trim());
console.log(run('node', ['app.cjs'], { cwd: app }).trim());

// 3b. The READMEs' and docs' examples, as users copy them.
step('README and docs examples against the tarballs');
checkDocExamples({ root, app, bin, env, fail });
const entryPoints = [...packed].flatMap(([name, { folder }]) =>
  Object.keys(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => (subpath === '.' ? name : `${name}/${subpath.slice(2)}`)),
);
await checkNoAny({ root, app, specifiers: entryPoints, fail });
// Every entry point's published declarations, strict with skipLibCheck off: no type from a dev-only package.
checkEntryTypes({ root, app, bin, env, specifiers: entryPoints, fail });
// The keel-eval and keel-devtools commands, from the project's node_modules/.bin.
await checkBins({ app, env, fail });
// @keel/redis and @keel/bullmq bring no Redis client of their own: run them on the app's ioredis and bullmq.
const redisPort = await new Promise((resolve) => {
  const probe = createNetServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
try {
  await new Promise((resolve, reject) => {
    redis.once('error', reject);
    const deadline = Date.now() + 20_000;
    const attempt = () =>
      connect(redisPort, '127.0.0.1')
        .once('connect', function connected() {
          this.destroy();
          resolve();
        })
        .once('error', () => (Date.now() > deadline ? reject(new Error('redis-server did not start')) : setTimeout(attempt, 50)));
    attempt();
  });
  cpSync(join(fixtures, 'fleet.mjs'), join(app, 'fleet.mjs'));
  console.log(run('node', ['fleet.mjs', String(redisPort)], { cwd: app, timeout: 90_000 }).trim());
} catch (error) {
  redis.kill();
  fail(`the fleet packages on the app's ioredis and bullmq (redis-server on port ${redisPort}): ${error.message}`);
}
redis.kill();
// @keel/mcp on the app's own MCP SDK, as its README installs it: an agent over a stdio MCP server.
run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', `@modelcontextprotocol/sdk@${JSON.parse(readFileSync(join(root, 'packages', 'mcp', 'package.json'), 'utf8')).peerDependencies['@modelcontextprotocol/sdk']}`], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
cpSync(join(fixtures, 'mcp.mjs'), join(app, 'mcp.mjs'));
cpSync(join(fixtures, 'mcp-server.mjs'), join(app, 'mcp-server.mjs'));
console.log(run('node', ['mcp.mjs'], { cwd: app, timeout: 60_000 }).trim());
// @keel/ai-sdk next to @ai-sdk/google, as its README installs them: an agent on a local Gemini server.
const aiSdkManifest = JSON.parse(readFileSync(join(root, 'packages', 'ai-sdk', 'package.json'), 'utf8'));
run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', `@ai-sdk/google@${aiSdkManifest.devDependencies['@ai-sdk/google']}`], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
if (existsSync(join(app, 'node_modules', 'ai'))) fail('the ai package was installed, though @keel/ai-sdk needs only @ai-sdk/provider');
cpSync(join(fixtures, 'ai-sdk.mjs'), join(app, 'ai-sdk.mjs'));
cpSync(join(fixtures, 'ai-sdk.cjs'), join(app, 'ai-sdk.cjs'));
console.log(run('node', ['ai-sdk.mjs'], { cwd: app, timeout: 60_000 }).trim());
console.log(run('node', ['ai-sdk.cjs'], { cwd: app }).trim());

// 4. The browser bundle of core + reliability, run without code generation.
step('browser bundle (esbuild, platform browser)');
const esbuild = await import(join(root, 'node_modules', 'esbuild', 'lib', 'main.js'));
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const noNodeBuiltins = {
  name: 'no-node-builtins',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      builtins.has(args.path) || args.path.startsWith('node:') ? { errors: [{ text: `Node built-in "${args.path}" imported by ${args.importer}` }] } : undefined,
    );
  },
};
cpSync(join(fixtures, 'browser-entry.mjs'), join(app, 'browser-entry.mjs'));
const browserBundle = join(app, 'browser-bundle.mjs');
await esbuild.build({ entryPoints: [join(app, 'browser-entry.mjs')], bundle: true, platform: 'browser', format: 'esm', outfile: browserBundle, plugins: [noNodeBuiltins], logLevel: 'error' });
console.log(`✓ bundled with no Node built-in (${Math.round(readFileSync(browserBundle).length / 1024)} KiB)`);
console.log(`node, code generation forbidden: ${run('node', ['--disallow-code-generation-from-strings', browserBundle]).trim()}`);

// 5. Bun and Deno, from npm.
step(`Bun ${RUNTIMES.bun} and Deno ${RUNTIMES.deno}`);
const runtimes = join(root, 'node_modules', '.cache', 'keel-runtimes');
const runtimeBin = (name) => join(runtimes, 'node_modules', '.bin', name);
if (!existsSync(runtimeBin('bun')) || !existsSync(runtimeBin('deno'))) {
  mkdirSync(runtimes, { recursive: true });
  writeFileSync(join(runtimes, 'package.json'), JSON.stringify({ private: true }));
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...Object.entries(RUNTIMES).map(([name, version]) => `${name}@${version}`)], { cwd: runtimes, stdio: ['ignore', 'ignore', 'inherit'] });
}
console.log(`deno, no permissions: ${run(runtimeBin('deno'), ['run', '--no-prompt', browserBundle], { cwd: app }).trim()}`);
const demoBundle = join(work, 'demo.mjs');
await esbuild.build({
  entryPoints: [join(root, 'examples', 'src', 'demo.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  conditions: ['@keel/source'],
  external: ['@anthropic-ai/sdk', 'openai'],
  outfile: demoBundle,
  logLevel: 'error',
});
const expected = run('node', [demoBundle]);
if (!expected.includes('Value: {"action":"refund","amount":50}')) fail('the demo bundle did not run on Node');
for (const [runtime, args] of [['bun', [demoBundle]], ['deno', ['run', '--allow-env', '--allow-read', demoBundle]]]) {
  const output = run(runtimeBin(runtime), args, { cwd: work });
  const strip = (text) => text.replace(/\(\d+(\.\d+)? ms\)/g, '(ms)').replace(/run [0-9a-f]{8}/g, 'run <id>');
  if (strip(output) !== strip(expected)) fail(`the demo printed something else on ${runtime}:\n${output}`);
  console.log(`✓ demo on ${runtime}: ${output.split('\n').filter((line) => line.startsWith('===')).length} scenarios, same trace as on Node`);
}

rmSync(work, { recursive: true, force: true });
console.log('\n✓ distribution checks passed');
