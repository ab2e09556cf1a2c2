/**
 * The attempt engine against the previous engine: per-step overhead of Keel `runTyped` on the
 * current build, on a previous build and by hand (the bare baseline), side by side in one process.
 *
 * Not part of `pnpm bench`: a clean clone has no previous build. To run it, build the previous
 * engine (commit e449031, before the attempt engine) somewhere, build the current one, then:
 *
 *   git -C <repo> worktree add /tmp/keel-old e449031
 *   (cd /tmp/keel-old && pnpm install --frozen-lockfile && pnpm --filter @keel/reliability --filter @keel/core build)
 *   pnpm --filter @keel/reliability --filter @keel/core build
 *   node --expose-gc packages/bench/src/engine-compare/compare.mjs /tmp/keel-old
 *
 * Arguments: the root of the previous build (required), then optionally the root of the current
 * build (default: this repository) and `rounds=N batch=N warmup=N`.
 *
 * The workload is the one of the overhead benchmark (packages/bench/src/overhead.ts): one tool step
 * whose arguments are validated, then a final JSON answer validated against a schema, with a
 * metrics listener on 15 events (the previous engine calls `tool.re-ask` `tool.retry`; each build
 * listens to its own name). Each build answers from its own `scriptedModel` (`@keel/core/test`),
 * whose record of requests is cleared before every batch; the bare baseline calls the current
 * build's scripted model by hand and validates with compiled ajv. After a warm-up, each round times
 * a batch of every contender in turn (order rotated per round, a minor GC before each batch) and
 * the ratios are taken per round: median and interquartile range.
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const settings = Object.fromEntries(args.filter((arg) => /^\w+=\d+$/.test(arg)).map((arg) => [arg.split('=')[0], Number(arg.split('=')[1])]));
const roots = args.filter((arg) => !/^\w+=\d+$/.test(arg));
if (!roots[0]) {
  console.error('usage: node --expose-gc compare.mjs <root of the previous build> [root of the current build] [rounds=N batch=N warmup=N]');
  process.exit(2);
}
const oldRoot = resolve(roots[0]);
const newRoot = resolve(roots[1] ?? join(dirname(fileURLToPath(import.meta.url)), '../../../..'));
const { rounds = 40, batch = 200, warmup = 2000 } = settings;

const load = async (root) => ({
  core: await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href),
  test: await import(pathToFileURL(join(root, 'packages/core/dist/test/index.js')).href),
});
const previous = await load(oldRoot);
const current = await load(newRoot);
const benchRequire = createRequire(join(newRoot, 'packages/bench/package.json'));
const { Type } = benchRequire('@sinclair/typebox');
const { Ajv } = benchRequire('ajv');

const RefundSchema = Type.Object(
  { action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() },
  { additionalProperties: false },
);
const LookupInput = Type.Object({ orderId: Type.String() });
const lookup = async ({ orderId }) => ({ orderId, paid: 50, status: 'damaged' });

const usage = { inputTokens: 120, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 };
const toolTurn = { toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: { orderId: 'A-1182' } }], usage };
const finalTurn = { text: '{"action":"refund","amount":50}', usage };
/** The first call of a conversation asks for the tool, the next gives the final JSON. */
const script = (request) => (request.messages.length <= 1 ? toolTurn : finalTurn);

const metricEvents = (reAsk) => [
  'run.start', 'run.end', 'step.start', 'step.end', 'model.request', 'model.response', 'model.error',
  'tool.start', 'tool.end', 'tool.validation', reAsk, 'validation.failed', 'reliability.retry',
  'reliability.recovered', 'output.repaired',
];

function keelContender(name, build, reAsk) {
  const model = build.test.scriptedModel(script);
  const counts = new Map();
  const builder = metricEvents(reAsk).reduce(
    (next, event) => next.on(event, () => void counts.set(event, (counts.get(event) ?? 0) + 1)),
    build.core.Agent.create({ provider: model, model: 'bench' })
      .tool(build.core.tool({ name: 'lookup_order', description: 'Look up an order', input: LookupInput, execute: lookup }))
      .outputSchema(RefundSchema),
  );
  const agent = builder.build();
  return { name, model, counts, run: () => agent.runTyped('Refund order A-1182?') };
}

function bareContender() {
  const model = current.test.scriptedModel(script);
  const ajv = new Ajv({ allErrors: true });
  const validateArgs = ajv.compile(LookupInput);
  const validateOutput = ajv.compile(RefundSchema);
  const run = async () => {
    const messages = [{ role: 'user', content: 'Refund order A-1182?' }];
    for (;;) {
      const response = await model.generate({ model: 'bench', messages }, {});
      const calls = response.content.filter((part) => part.type === 'tool-call');
      if (calls.length === 0) {
        const value = JSON.parse(response.text);
        if (!validateOutput(value)) throw new Error('invalid output');
        return value;
      }
      const results = await Promise.all(
        calls.map(async (call) => {
          if (!validateArgs(call.arguments)) throw new Error('invalid arguments');
          return { type: 'tool-result', toolCallId: call.id, toolName: call.name, output: JSON.stringify(await lookup(call.arguments)), isError: false };
        }),
      );
      messages.push({ role: 'assistant', content: response.content }, { role: 'tool', content: results });
    }
  };
  return { name: 'bare', model, run };
}

/** The re-ask event's name in a build: `tool.re-ask`, or `tool.retry` in engines before it was renamed. */
function reAskEvent(build) {
  try {
    build.core.Agent.create({ provider: build.test.scriptedModel('x'), model: 'bench' }).on('tool.re-ask', () => undefined);
    return 'tool.re-ask';
  } catch {
    return 'tool.retry';
  }
}

const contenders = [keelContender('new', current, reAskEvent(current)), keelContender('old', previous, reAskEvent(previous)), bareContender()];
const gc = globalThis.gc;
if (!gc) console.warn('run with node --expose-gc: without it no GC settles the batches');

// Every contender must give the same answer before anything is timed.
for (const contender of contenders) {
  const value = await contender.run();
  if (JSON.stringify(value) !== finalTurn.text) throw new Error(`${contender.name} answered ${JSON.stringify(value)}`);
}

for (const contender of contenders) for (let index = 0; index < warmup; index++) await contender.run();
const samples = new Map(contenders.map((contender) => [contender.name, []]));
for (let round = 0; round < rounds; round++) {
  for (let offset = 0; offset < contenders.length; offset++) {
    const contender = contenders[(round + offset) % contenders.length];
    contender.model.requests.length = 0;
    gc?.({ type: 'minor' });
    const started = performance.now();
    for (let index = 0; index < batch; index++) await contender.run();
    samples.get(contender.name).push(((performance.now() - started) * 1000) / batch);
  }
}

const quantile = (sorted, fraction) => {
  const at = (sorted.length - 1) * fraction;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
};
const describe = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p25: quantile(sorted, 0.25), p75: quantile(sorted, 0.75) };
};
const ratio = (a, b) => describe(samples.get(a).map((value, index) => value / samples.get(b)[index]));

console.log(`node ${process.version}, ${rounds} rounds of ${batch} runs per contender, ${warmup} warm-up runs each`);
console.log(`previous build: ${oldRoot}\ncurrent build:  ${newRoot}\n`);
console.log('| contender | median µs/run | IQR µs |');
console.log('|---|---|---|');
for (const contender of contenders) {
  const { median, p25, p75 } = describe(samples.get(contender.name));
  console.log(`| ${contender.name} | ${median.toFixed(1)} | ${p25.toFixed(1)}–${p75.toFixed(1)} |`);
}
console.log('\n| per-round ratio | median | IQR |');
console.log('|---|---|---|');
for (const [a, b] of [['new', 'bare'], ['old', 'bare'], ['new', 'old']]) {
  const { median, p25, p75 } = ratio(a, b);
  console.log(`| ${a}/${b} | ${median.toFixed(3)} | ${p25.toFixed(3)}–${p75.toFixed(3)} |`);
}
const events = (contender) => [...contender.counts].map(([name, count]) => `${name}=${count}`).join(' ');
console.log(`\nevents seen (new): ${events(contenders[0])}\nevents seen (old): ${events(contenders[1])}`);
