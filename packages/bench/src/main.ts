/**
 * `pnpm bench`: every figure is measured in this one process run, contenders side by side, and
 * written to docs/benchmarks.md with the command that made it.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { us } from './measure';
import { measureHeap, measureOverhead } from './overhead';
import { measurePromptGrowth } from './prompt-growth';
import { measureValidationOverhead } from './validation-overhead';

const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
const started = performance.now();

console.log('Measuring framework overhead (tool step + validated answer) …');
const overhead = await measureOverhead();
console.log('Measuring heap over 10,000 runs …');
const heap = await measureHeap();
console.log('Measuring validation + feedback work per failed attempt …');
const validation = await measureValidationOverhead();
console.log('Measuring prompt growth over 3 attempts …');
const growth = await measurePromptGrowth();

const growthRatio = (growth.keel[2] ?? 0) / (growth.keel[0] ?? 1);
const accumulateRatio = (growth.accumulate[2] ?? 0) / (growth.accumulate[0] ?? 1);
const rows = [
  ['Keel run (tool step + validated answer)', us(overhead.keel.medianUs), `${us(overhead.keel.minUs)} – ${us(overhead.keel.maxUs)}`],
  ['Bare baseline (same work by hand)', us(overhead.bare.medianUs), `${us(overhead.bare.minUs)} – ${us(overhead.bare.maxUs)}`],
  ['Keel validation + feedback, one failed attempt', us(validation.keel.medianUs), `${us(validation.keel.minUs)} – ${us(validation.keel.maxUs)}`],
  ['Bare JSON.parse + ajv + raw errors', us(validation.bare.medianUs), `${us(validation.bare.minUs)} – ${us(validation.bare.maxUs)}`],
];
const table = ['| measurement | median per run | min – max |', '| --- | --- | --- |', ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
const gc = (globalThis as { gc?: unknown }).gc !== undefined;

const markdown = `# Benchmarks

Made by \`pnpm bench\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}.
Every ratio below was measured in that one process run: contenders alternate in rounds (order
rotated each round) after a warm-up, and each figure is the median of the per-round means.
The model is in-process with zero latency, so the numbers are the framework's own cost.

${table}

## Framework overhead per model call

- Keel / bare: **${overhead.ratio.toFixed(2)}x** (target under 5x: ${verdict(overhead.ratio < 5)}).
- Keel adds **${us(overhead.overheadPerCallUs)}** per model call (2 calls per run): events, usage
  ledger, the reliability gate, tool-argument validation, JSON extraction and output validation.

## Heap over ${heap.runs.toLocaleString('en')} runs

- After 1,000 warm-up runs: ${heap.warmMb.toFixed(2)} MB; after ${heap.runs.toLocaleString('en')} more: ${heap.afterMb.toFixed(2)} MB;
  growth **${heap.growthMb.toFixed(2)} MB** (target flat, under 1 MB: ${verdict(Math.abs(heap.growthMb) < 1)})${gc ? '' : ' — GC was not exposed, so readings are noisy'}.

## Validation and feedback per failed attempt

- Keel / bare ajv: **${validation.ratio.toFixed(2)}x** (${us(validation.keel.medianUs)} vs ${us(validation.bare.medianUs)}).
  Keel's figure includes local JSON extraction, issue normalisation and writing the prose
  feedback; the bare figure sends the validator's raw errors. Both are microseconds against a
  model call's hundreds of milliseconds.

## Prompt size per attempt

20 kept messages (about 1 KB each) and an 8 KB invalid output, 3 attempts (characters sent):

| strategy | attempt 1 | attempt 2 | attempt 3 | attempt 3 / attempt 1 |
| --- | --- | --- | --- | --- |
| Keel (latest failure only, echo capped) | ${growth.keel.join(' | ')} | **${growthRatio.toFixed(2)}x** |
| accumulate every attempt | ${growth.accumulate.join(' | ')} | ${accumulateRatio.toFixed(2)}x |

Target attempt 3 at most 1.5x attempt 1: ${verdict(growthRatio <= 1.5)}. Keel's attempt 3 is the
size of attempt 2: only the latest failed output (capped at \`maxFeedbackTokens\`) and its feedback
are sent, so growth is one echo, not one per attempt. The ratio is 1 + echo / history: a shorter
history with the same 8 KB output grows more; lower \`maxFeedbackTokens\` to cap it.

Total bench time: ${((performance.now() - started) / 1000).toFixed(1)} s.
`;

const target = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
writeFileSync(target, markdown);
console.log(`\n${table}\n`);
console.log(`Keel / bare: ${overhead.ratio.toFixed(2)}x, ${us(overhead.overheadPerCallUs)} per model call`);
console.log(`Heap growth over ${heap.runs} runs: ${heap.growthMb.toFixed(2)} MB`);
console.log(`Validation + feedback / bare ajv: ${validation.ratio.toFixed(2)}x`);
console.log(`Prompt attempt 3 / attempt 1: ${growthRatio.toFixed(2)}x (accumulate: ${accumulateRatio.toFixed(2)}x)`);
console.log(`Wrote ${target}`);
