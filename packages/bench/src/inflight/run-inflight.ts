/**
 * `pnpm --filter @keel/bench bench:inflight`: what each of 1,000 runs of the tool-and-answer agent
 * holds while all of them wait for their second model call — heap bytes per run (GC forced), and
 * the heap snapshot's objects, closures, contexts and suspended async functions per run. Memory
 * only, no timing: deterministic enough to compare two versions on a busy machine.
 */
import { keelAgentBuilder } from '../overhead';
import { censusDifference } from './heap-census';
import { measureHeldHeap } from './held-heap';
import { scriptUrls } from './script-urls';

const RUNS = 1000;
const start = (model: Parameters<typeof keelAgentBuilder>[0]) => {
  const agent = keelAgentBuilder(model).build();
  return (input: string) => agent.run(input);
};

const TRIALS = 5;
const readings: number[] = [];
for (let trial = 0; trial < TRIALS; trial++) {
  const held = await measureHeldHeap(start, RUNS);
  if (!held) throw new Error('run with --expose-gc');
  readings.push(held.bytesPerRun);
}
const counted = await measureHeldHeap(start, RUNS, { census: await scriptUrls() });
if (!counted?.census) throw new Error('run with --expose-gc');
const entries = censusDifference(counted.census.idle, counted.census.inFlight, RUNS);
const sum = (select: (kind: string) => boolean, field: 'count' | 'bytes') => entries.filter((entry) => select(entry.kind)).reduce((total, entry) => total + entry[field], 0);
const isClosure = (kind: string) => kind.startsWith('closure ');
const isContext = (kind: string) => kind === 'object system / Context';
const isFrame = (kind: string) => kind.startsWith('object Generator');

const median = [...readings].sort((a, b) => a - b)[Math.floor(TRIALS / 2)] as number;
console.log(`Heap held per run in flight (${RUNS.toLocaleString('en')} runs): median ${Math.round(median)} B of ${TRIALS} trials (${readings.map((bytes) => Math.round(bytes)).join(', ')})`);
console.log(`Heap snapshot, per run: ${sum(() => true, 'count').toFixed(1)} nodes (${Math.round(sum(() => true, 'bytes'))} B own size), of them ${sum(isClosure, 'count').toFixed(1)} closures, ${sum(isContext, 'count').toFixed(1)} function contexts and ${sum(isFrame, 'count').toFixed(1)} suspended async functions`);
console.log('\n| per run | own bytes | kind |\n| ---: | ---: | --- |');
for (const entry of entries) console.log(`| ${entry.count.toFixed(1)} | ${Math.round(entry.bytes)} | ${entry.kind.replace(/\|/g, '\\|')} |`);
