/**
 * The examples of every package README and of the docs a new user reads first, copied as a user
 * copies them into a fresh project that installed the packed tarballs: each is typechecked in strict
 * mode with `skipLibCheck: false` under `moduleResolution` nodenext, bundler and node10 (CommonJS),
 * and the ones that run offline are run. What the examples import beyond Keel is installed as the
 * READMEs say, and an install that warns of a peer dependency fails the check.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The docs a new user reads first, beside the package READMEs. */
const DOCS = ['installing', 'testing', 'tracing', 'devtools', 'cassettes', 'runtimes', 'scale-out', 'coming-from-ai-sdk'].map((name) => `docs/${name}.md`);
/** What the examples import beyond Keel, as the READMEs and docs tell users to install it. */
const INSTALLED_BY_THE_DOCS = ['zod', 'ioredis', 'bullmq@5', '@opentelemetry/api', '@opentelemetry/sdk-trace-base'];

/** The ```ts and CommonJS ```js blocks of a document; a package README may mark a block to skip. */
function examplesOf(root, document) {
  const lines = readFileSync(join(root, document), 'utf8').split('\n');
  const examples = [];
  for (let at = 0; at < lines.length; at++) {
    const fence = /^```(ts|typescript|js)\s*$/.exec(lines[at]);
    if (!fence) continue;
    let end = at + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    const code = lines.slice(at + 1, end).join('\n');
    const skipped = /<!-- docs:check skip: .+ -->/.test(lines[at - 1] ?? '') && document.startsWith('packages/');
    const commonjs = fence[1] === 'js' && /\brequire\(/.test(code);
    if (!skipped && (fence[1] !== 'js' || commonjs)) examples.push({ document, line: at + 1, code, commonjs });
    at = end;
  }
  return examples;
}

/** The same example as a CommonJS user writes it: imports and declarations on top, the rest in a function. */
function asCommonJs(code) {
  const lines = code.split('\n');
  const top = lines.filter((line) => /^(import|declare)\b/.test(line));
  const body = lines.filter((line) => !/^(import|declare)\b/.test(line));
  return `${top.join('\n')}\nexport async function main(): Promise<void> {\n${body.join('\n')}\n}\n`;
}

/** Runs offline as written: nothing declared for the reader to fill in, no real model called. */
const runsOffline = (code) => !/\bdeclare\b|process\.env|\b(openai|anthropic)\(\)|@keel\/(redis|bullmq)/.test(code);

export function checkDocExamples({ root, app, bin, env, fail }) {
  // What the docs tell users to install; npm must not warn of a peer dependency.
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn', ...INSTALLED_BY_THE_DOCS], { cwd: app, env, encoding: 'utf8' });
  const warnings = install.stderr.split('\n').filter((line) => /peer|ERESOLVE/i.test(line));
  if (install.status !== 0 || warnings.length > 0) fail(`npm install ${INSTALLED_BY_THE_DOCS.join(' ')} next to the tarballs:\n${warnings.join('\n') || install.stderr}`);

  const documents = [...readdirSync(join(root, 'packages')).map((name) => `packages/${name}/README.md`).filter((path) => existsSync(join(root, path))), ...DOCS];
  const examples = documents.flatMap((document) => examplesOf(root, document));
  const folder = join(app, 'examples');
  const commonjsFolder = join(app, 'examples-cjs');
  mkdirSync(folder, { recursive: true });
  mkdirSync(commonjsFolder, { recursive: true });
  writeFileSync(join(commonjsFolder, 'package.json'), JSON.stringify({ type: 'commonjs' }));
  const named = examples.map((example) => ({ ...example, name: `${example.document.replace(/[/.]/g, '-')}-${example.line}` }));
  for (const { name, code, commonjs } of named) {
    if (commonjs) writeFileSync(join(app, `${name}.cjs`), `${code}\n`);
    else {
      writeFileSync(join(folder, `${name}.ts`), `${code}\n`);
      writeFileSync(join(commonjsFolder, `${name}.ts`), asCommonJs(code));
    }
  }

  // Strict, as a careful user sets it; skipLibCheck off, so a published type that cannot be read fails.
  const strict = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false, target: 'ES2022', types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] };
  const configs = {
    nodenext: { compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext', outDir: 'build' }, include: ['examples/*.ts'] },
    bundler: { compilerOptions: { ...strict, module: 'esnext', moduleResolution: 'bundler', noEmit: true }, include: ['examples/*.ts'] },
    node10: { compilerOptions: { ...strict, module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true, noEmit: true }, include: ['examples-cjs/*.ts'] },
  };
  for (const [resolution, config] of Object.entries(configs)) {
    writeFileSync(join(app, `tsconfig.${resolution}.json`), JSON.stringify(config));
    const compiled = spawnSync(bin('tsc'), ['-p', `tsconfig.${resolution}.json`], { cwd: app, env, encoding: 'utf8' });
    if (compiled.status !== 0) fail(`the examples do not compile with moduleResolution ${resolution}:\n${compiled.stdout}${compiled.stderr}`);
  }
  const compiledCount = named.filter(({ commonjs }) => !commonjs).length;
  console.log(`✓ ${compiledCount} examples typecheck against the tarballs (strict, skipLibCheck off): nodenext, bundler, node10`);

  let ran = 0;
  for (const { name, document, line, code, commonjs } of named) {
    if (!runsOffline(code)) continue;
    const file = commonjs ? `${name}.cjs` : join('build', `${name}.js`);
    const result = spawnSync('node', [file], { cwd: app, env, encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) fail(`${document}:${line} does not run as written:\n${result.stderr}${result.stdout}`);
    ran++;
  }
  console.log(`✓ ${ran} offline examples run as written`);
}
