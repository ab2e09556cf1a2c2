/**
 * The commands the tarballs install, run as a user runs them from the fresh project (through
 * `node_modules/.bin`, so the shebang, the executable bit and the ESM build are what runs):
 *  - `keel-eval` on an eval file written as docs/evals.md says: a baseline run writes the JSON and
 *    HTML reports and exits 0, a changed agent exits 1 naming the regression, a TypeScript eval file
 *    without a loader exits 2 saying how to run it (or runs, on a Node that strips types itself);
 *  - `keel-devtools` on a trace `fileTrace()` wrote: the page is served on 127.0.0.1 and the server
 *    stops on SIGTERM; a second viewer on the same port exits 2 saying the port is in use.
 * Offline and deterministic: a scripted model, a port the system picks.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const EVAL_FILE = `import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { defineEval, exactMatch } from '@keel/evals';

const changed = process.env.EVAL_VARIANT === 'changed';
const answer = (request) => (changed || String(request.messages[0]?.content).includes('Italy') ? 'Rome' : 'Paris');
export default defineEval({
  name: 'capitals',
  agent: Agent.create({ provider: scriptedModel(answer), model: 'claude-sonnet-4-6' }).build(),
  dataset: [
    { id: 'france', input: 'Capital of France?', expected: 'Paris' },
    { id: 'italy', input: 'Capital of Italy?', expected: 'Rome' },
  ],
  scorers: [exactMatch()],
});
`;

const TRACE_SCRIPT = `import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { fileTrace } from '@keel/devtools';

const trace = fileTrace(process.argv[2], { recordContent: true });
await Agent.create({ provider: scriptedModel('Paris'), model: 'claude-sonnet-4-6' }).use(trace).build().run('Capital of France?');
await trace.flush();
`;

function checkKeelEval({ app, env, fail }) {
  const folder = join(app, 'evals');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'capitals.eval.mjs'), EVAL_FILE);
  writeFileSync(join(folder, 'capitals.eval.ts'), EVAL_FILE);
  const keelEval = (args, extra = {}) => spawnSync(join(app, 'node_modules', '.bin', 'keel-eval'), args, { cwd: app, env: { ...env, ...extra }, encoding: 'utf8', timeout: 60_000 });

  const baseline = keelEval(['evals/capitals.eval.mjs', '--out', 'eval-reports/baseline']);
  if (baseline.status !== 0) fail(`keel-eval on an eval file exited ${baseline.status}:\n${baseline.stderr}${baseline.stdout}`);
  const json = join(app, 'eval-reports', 'baseline', 'capitals.json');
  const html = join(app, 'eval-reports', 'baseline', 'capitals.html');
  if (!existsSync(json) || !readFileSync(html, 'utf8').startsWith('<!doctype html>')) fail(`keel-eval wrote no JSON and HTML report:\n${baseline.stdout}`);
  if (JSON.parse(readFileSync(json, 'utf8')).summary.passRate !== 1) fail(`keel-eval's baseline report does not pass every item:\n${baseline.stdout}`);

  const changed = keelEval(['evals/capitals.eval.mjs', '--out', 'eval-reports/changed', '--baseline', 'eval-reports/baseline/capitals.json'], { EVAL_VARIANT: 'changed' });
  if (changed.status !== 1 || !changed.stdout.includes('✗ item france passed in the baseline and now fails')) fail(`keel-eval did not exit 1 on a regression (exit ${changed.status}):\n${changed.stderr}${changed.stdout}`);

  // A Node that strips types itself runs it; any other says how to run it.
  const typescript = keelEval(['evals/capitals.eval.ts', '--out', 'eval-reports/typescript'], { NODE_OPTIONS: '' });
  const explained = typescript.status === 2 && typescript.stderr.includes('run it with a loader');
  if (!explained && !(typescript.status === 0 && existsSync(join(app, 'eval-reports', 'typescript', 'capitals.json')))) fail(`keel-eval on a TypeScript eval file without a loader (exit ${typescript.status}):\n${typescript.stderr}`);
  console.log(`✓ keel-eval: reports written (exit 0), a regression against the baseline (exit 1), a TypeScript file without a loader (${explained ? 'exit 2, saying how to run it' : 'run by Node itself'})`);
}

/** Starts `keel-devtools`, resolving with the child and its URL once it prints it (or with its exit when it ends first). */
function startViewer(app, env, args) {
  const child = spawn(join(app, 'node_modules', '.bin', 'keel-devtools'), args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ child, output }), 30_000);
    const read = (chunk) => {
      output += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(output)?.[0];
      if (url) {
        clearTimeout(timer);
        resolve({ child, output, url });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ child, output, code });
    });
  });
}

async function checkKeelDevtools({ app, env, fail }) {
  writeFileSync(join(app, 'trace-a-run.mjs'), TRACE_SCRIPT);
  const traced = spawnSync('node', ['trace-a-run.mjs', 'runs.jsonl'], { cwd: app, env, encoding: 'utf8', timeout: 60_000 });
  if (traced.status !== 0) fail(`fileTrace() from the tarball did not write a trace:\n${traced.stderr}`);

  const viewer = await startViewer(app, env, ['runs.jsonl', '--port', '0']);
  if (!viewer.url) fail(`keel-devtools served nothing:\n${viewer.output}`);
  try {
    const page = await fetch(viewer.url);
    const body = await page.text();
    if (page.status !== 200 || !body.includes('Capital of France?')) fail(`keel-devtools answered ${page.status} without the traced run:\n${body.slice(0, 500)}`);
    const port = new URL(viewer.url).port;
    const second = await startViewer(app, env, ['runs.jsonl', '--port', port]);
    if (second.code !== 2 || !second.output.includes('is in use')) {
      second.child.kill();
      fail(`a second keel-devtools on port ${port} (exit ${second.code}):\n${second.output}`);
    }
  } finally {
    viewer.child.kill('SIGTERM');
  }
  const [code] = await new Promise((resolve) => (viewer.child.exitCode === null ? viewer.child.once('exit', (...ended) => resolve(ended)) : resolve([viewer.child.exitCode])));
  if (code !== 0) fail(`keel-devtools did not stop cleanly on SIGTERM (exit ${code})`);
  console.log('✓ keel-devtools: the page of a traced run served on 127.0.0.1, a port in use refused (exit 2), stopped on SIGTERM');
}

export async function checkBins({ app, env, fail }) {
  checkKeelEval({ app, env, fail });
  await checkKeelDevtools({ app, env, fail });
}
