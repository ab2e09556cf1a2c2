/**
 * `pnpm bench`: every figure is measured in this one process run, contenders side by side, and
 * written to docs/benchmarks.md with the command that made it. Keel is measured as built (dist).
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { pairedRatio, us } from './measure';
import { measureHeap } from './overhead';
import { measureAiSdkOverhead } from './peers/ai-sdk-overhead';
import { measureAiSdkAdapter } from './peers/ai-sdk-adapter';
import { measureFileTrace } from './file-trace-overhead';
import { measureFleet } from './fleet/measure-fleet';
import { measureFootprint } from './peers/footprint';
import { measurePromptGrowth } from './prompt-growth';
import type { ConcurrencyFigures } from './concurrency';
import { measureGrowth } from './growth';
import { measureIndependent } from './independent/measure-independent';
import { measureLargeOutput } from './large-output/measure-large-output';
import { measureLongRun } from './long-run/measure-long-run';
import { measureRecovery } from './recovery/measure-recovery';
import { measureModes } from './recovery/measure-modes';
import { measureValidationOverhead } from './validation-overhead';
import { measureRunLevelRules } from './run-level-rules';
import { measureDurable } from './durable/measure-durable';

const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
const started = performance.now();
const step = (label: string) => console.log(`${label} …`);

step('Overhead per run: Keel, the AI SDK and a bare baseline');
const overhead = await measureAiSdkOverhead();
step('The AI SDK adapter per call, against the AI SDK model called directly');
const aiSdkAdapter = await measureAiSdkAdapter();
step('Heap over 10,000 runs');
const heap = await measureHeap();
step('Validation + feedback work per failed attempt');
const validation = await measureValidationOverhead();
step('Run-level rules (action loops) per step, with and without them');
const runLevel = await measureRunLevelRules();
step('Recovery on the malformed-output corpus');
const recovery = await measureRecovery();
step('Re-asks per defect class and output mode (prompt, native, tool)');
const modes = await measureModes();
console.log(modes.markdown);
step('Recovery on the independent corpus, with a model that reads feedback for its meaning');
const independent = await measureIndependent();
step('Large outputs: patch re-asks, continuation and dollars');
const large = await measureLargeOutput();
step('Long runs: a 100-step run under a 32k window, with and without compaction');
const longRun = await measureLongRun();
step('Costs as the work grows');
const growthTables = await measureGrowth();
step('Prompt growth over 3 attempts');
const growth = await measurePromptGrowth();
step('Cold import time and bundle size');
const footprint = await measureFootprint();
step('Tracing to a file (@keel/devtools), against the same run untraced');
const fileTraceFigures = await measureFileTrace();
step('Durable runs: a plain run against durable ones (in memory, on Redis, on PostgreSQL)');
const durable = await measureDurable();
step('Fleet: BullMQ workers and a shared budget on Redis');
const fleet = await measureFleet();
const concurrency = {
  keel: growthTables.concurrency.find((figure) => figure.name === 'Keel') as ConcurrencyFigures,
  bare: growthTables.concurrency.find((figure) => figure.name !== 'Keel') as ConcurrencyFigures,
};
const gcExposed = (globalThis as { gc?: unknown }).gc !== undefined;
const perCallUs = overhead.keelOverheadUs / 2;
const paired = pairedRatio(overhead.keel, overhead.bare);

const markdown = `# Benchmarks

Made by \`pnpm bench\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}.
Every figure below was measured in that one process run: contenders alternate in rounds (order
rotated each round) after a warm-up, and each timing is the median of the per-round means, with
min – max. In the comparisons of whole runs (against the AI SDK, runs at once, the metrics listener), a
minor (young-generation) GC runs, untimed, before each batch, so that no batch pays for the
garbage of the one before it. Models answer in-process with zero latency, so timings are the frameworks' own cost.
Timings on a shared 2-core machine vary between runs by tens of percent; the ratios, measured
side by side, are the figures to read.

## Summary

| target | figure | verdict |
| --- | --- | --- |
| Keel's overhead over bare ≤ half the AI SDK's | ${us(overhead.keelOverheadUs)} vs ${us(overhead.aiSdkOverheadUs)} | ${verdict(overhead.targetMet)} |
| Keel overhead per step under 5x the bare baseline | ${overhead.keelOverBare.toFixed(1)}x | ${verdict(overhead.keelOverBare < 5)} |
| heap flat over ${heap.runs.toLocaleString('en')} runs | ${heap.growthMb.toFixed(2)} MB | ${verdict(Math.abs(heap.growthMb) < 1)} |
| every recoverable output recovered, syntax repaired locally, ≤ 1 re-ask per semantic defect set | ${recovery.targets.filter((target) => target.met).length} of ${recovery.targets.length} checks | ${verdict(recovery.targets.every((target) => target.met))} |
${independent.targets.map((target) => `| ${target.name} | ${target.figure} | ${verdict(target.met)} |`).join('\n')}
${large.targets.map((target) => `| ${target.name} | ${target.figure} | ${verdict(target.met)} |`).join('\n')}
${longRun.targets.map((target) => `| ${target.name} | ${target.figure} | ${verdict(target.met)} |`).join('\n')}
| 1,000 runs at once ≤ 1.2x per run the cost one after another | ${concurrency.keel.ratio.median.toFixed(2)}x (bare baseline ${concurrency.bare.ratio.median.toFixed(2)}x) | ${verdict(concurrency.keel.ratio.median <= 1.2)} |
${fileTraceFigures.targets.map((target) => `| ${target.name} | ${target.figure} | ${verdict(target.met)} |`).join('\n')}
| prompt of attempt 3 ≤ 1.5x attempt 1 | ${growth.keelRatio.toFixed(2)}x | ${verdict(growth.keelRatio <= 1.5)} |
${
  fleet.overshoot
    ? `| shared budget overshoot ≤ the calls in flight (4 processes) | ${fleet.overshoot.map((row) => `${row.spentTokens - row.limitTokens} ≤ ${row.lanes * row.tokensPerCall}`).join(', ')} tokens | ${verdict(fleet.overshoot.every((row) => row.spentTokens - row.limitTokens <= row.lanes * row.tokensPerCall && row.spentTokens === row.calls * row.tokensPerCall))} |\n`
    : ''
}
${overhead.markdown}
### Against the bare baseline

Keel adds about **${us(perCallUs)} per model call** over calling the model and validating by hand:
the typed events, the usage ledger, the reliability gate (rules, attempt records), tool-argument
validation, JSON extraction and output validation. The bare baseline does almost nothing (two
function calls, one \`JSON.parse\`, two compiled validations: ${us(overhead.bare.medianUs)} a run).

Keel / bare per round (each round runs both side by side): median **${paired.median.toFixed(2)}x**,
interquartile range ${paired.p25.toFixed(2)}x – ${paired.p75.toFixed(2)}x, with a metrics listener attached to Keel. The 5x target is ${
  overhead.keelOverBare < 5
    ? `met on the medians of this run${paired.p75 >= 5 ? ', but a quarter of the rounds or more go past it: the figure sits close to the target and moves with machine noise' : ''}`
    : `**not met**: measured with the listener (events are part of the product), Keel's bookkeeping is well above five bare runs of two function calls`
}. What remains is the bookkeeping the guarantees need — every attempt recorded, every call
counted and priced, rules consulted after every call. Against a real model call of hundreds of
milliseconds the overhead is under a thousandth of it.

The attempt engine against the engine before it, side by side in one process (a build of each):
[engine-compare.md](engine-compare.md), made by \`packages/bench/src/engine-compare/compare.mjs\`.

## Heap over ${heap.runs.toLocaleString('en')} runs

After 1,000 warm-up runs: ${heap.warmMb.toFixed(2)} MB; after ${heap.runs.toLocaleString('en')} more: ${heap.afterMb.toFixed(2)} MB; growth
**${heap.growthMb.toFixed(2)} MB**${gcExposed ? ' (GC forced before each reading)' : ' — GC was not exposed, so readings are noisy'}.

## Run-level rules per step

The action-loop rules read the run so far (\`scope.run\`) after every step's call from the second
step on. An 11-step run (10 tool steps reading another page each, then the answer), with the
default rules and with the defaults less the two action-loop rules, side by side:
**${us(runLevel.perStepWithUs)}** per step with them, **${us(runLevel.perStepWithoutUs)}** without;
with / without ${runLevel.ratio.median.toFixed(2)}x (p25 ${runLevel.ratio.p25.toFixed(2)}x, p75 ${runLevel.ratio.p75.toFixed(2)}x).

## Validation and feedback per failed attempt

Keel / bare ajv: **${validation.ratio.toFixed(2)}x** (${us(validation.keel.medianUs)} vs ${us(validation.bare.medianUs)}). Keel's figure
includes local JSON extraction, issue normalisation and writing the prose feedback; the bare
figure sends the validator's raw errors.

${recovery.markdown}
${modes.markdown}
${independent.markdown}
${large.markdown}
${longRun.markdown}
${growthTables.markdown}
## Prompt growth per attempt

20 kept messages (about 1 KB each) and an 8 KB invalid output; tokens counted with a BPE tokenizer:

| strategy | attempt 1 | attempt 2 | attempt 3 | attempt 3 / attempt 1 |
| --- | --- | --- | --- | --- |
| Keel (latest failure only, echo capped) | ${growth.keel.join(' | ')} | **${growth.keelRatio.toFixed(2)}x** |
| accumulate every attempt | ${growth.accumulate.join(' | ')} | ${growth.accumulateRatio.toFixed(2)}x |

Keel's attempt 3 is the size of attempt 2: only the latest failed output (capped at
\`maxFeedbackTokens\`) and its feedback are sent. Growth is one echo, so the ratio is about
1 + echo / history: a shorter history with the same 8 KB output grows more; lower
\`maxFeedbackTokens\` to cap it.

${fileTraceFigures.markdown}
${aiSdkAdapter.markdown}
${footprint.markdown}
${durable.markdown}
${fleet.markdown}
Total bench time: ${((performance.now() - started) / 1000).toFixed(0)} s.
`;

const target = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
writeFileSync(target, markdown);
console.log(`
Keel ${us(overhead.keel.medianUs)} | AI SDK ${us(overhead.aiSdk.medianUs)} | bare ${us(overhead.bare.medianUs)} per run
Keel / bare ${overhead.keelOverBare.toFixed(2)}x, Keel / AI SDK ${overhead.keelOverAiSdk.toFixed(2)}x, overhead ${us(overhead.keelOverheadUs)} vs ${us(overhead.aiSdkOverheadUs)}
Heap growth over ${heap.runs} runs: ${heap.growthMb.toFixed(2)} MB
Validation + feedback / bare ajv: ${validation.ratio.toFixed(2)}x
Recovery (Keel default): ${recovery.overall.keel.recoveredPct.toFixed(1)}% recovered, ${recovery.overall.keel.meanCalls.toFixed(2)} calls, ${recovery.overall.keel.meanPromptTokens.toFixed(0)} prompt tokens per output
Independent corpus: Keel / fair baseline ${independent.callsRatio.toFixed(2)}x calls, ${independent.tokensRatio.toFixed(2)}x tokens per recovered output
Metrics listener: ${growthTables.listenerRatio.toFixed(2)}x; 1,000 concurrent / sequential: Keel ${concurrency.keel.ratio.median.toFixed(2)}x, bare ${concurrency.bare.ratio.median.toFixed(2)}x
Tracing to a file: ${fileTraceFigures.rows.map((row) => `${row.steps} steps ${row.bytes.toLocaleString('en')} bytes, ${row.ratio.median.toFixed(2)}x untraced`).join('; ')}; 100 / 25 steps ${fileTraceFigures.growth.toFixed(2)}x
Prompt attempt 3 / attempt 1: ${growth.keelRatio.toFixed(2)}x (accumulate ${growth.accumulateRatio.toFixed(2)}x)
Wrote ${target}`);
