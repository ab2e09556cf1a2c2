/**
 * What the parts of a trace cost on the thread that runs the agent, one by one: reading the clock
 * and freezing a payload (what core does for every event it delivers), serialising one run's
 * records as JSON, and handing events to a worker thread with `postMessage`. These bound any
 * design of a file trace: see "Tracing to a file" in docs/benchmarks.md.
 *
 * Not part of `pnpm bench` (it measures parts, not a run). Run: `node packages/bench/src/trace-floor/costs.mjs`.
 */
import { Worker } from 'node:worker_threads';

const RUNS = 200_000;
let sink;

/** Nanoseconds per call of `fn`, after a warm-up. */
function time(fn, runs = RUNS) {
  for (let index = 0; index < runs / 10; index++) fn(index);
  const started = performance.now();
  for (let index = 0; index < runs; index++) fn(index);
  return ((performance.now() - started) * 1e6) / runs;
}

const runId = globalThis.crypto.randomUUID();
const usage = { inputTokens: 120, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0012 };
/** One run of the overhead benchmark's agent, as records: two steps, two model calls, one tool call. */
const runRecords = {
  runId,
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  startedAt: 1_764_300_000_000,
  durationMs: 1.234,
  status: 'ok',
  steps: [
    { step: 1, finishReason: 'tool-calls', toolCalls: 1, modelCalls: 1, durationMs: 0.5 },
    { step: 2, finishReason: 'stop', toolCalls: 0, modelCalls: 1, durationMs: 0.4 },
  ],
  attempts: [
    { step: 1, attempt: 1, purpose: 'step', providerIndex: 0, status: 'ok', errorKind: 'ok', elapsedMs: 0.3, usage, feedbackSent: false },
    { step: 2, attempt: 1, purpose: 'step', providerIndex: 0, status: 'ok', errorKind: 'ok', elapsedMs: 0.3, usage, feedbackSent: false },
  ],
  toolCalls: [{ id: 'call_1', name: 'lookup_order', isError: false, step: 1, durationMs: 0.1 }],
  usage,
};
const payload = (index) => ({ runId, step: 1, timestamp: 1_764_300_000_000 + index, toolCallId: 'call_1', tool: 'lookup_order', isError: false, durationMs: 0.123456 });

const rows = [
  ['Date.now()', time(() => (sink = Date.now()))],
  ['an event payload literal', time((index) => (sink = payload(index)))],
  ['the same literal, frozen', time((index) => (sink = Object.freeze(payload(index))))],
  [`JSON.stringify of one run's records (${JSON.stringify(runRecords).length} bytes)`, time(() => (sink = JSON.stringify(runRecords)), RUNS / 10)],
];

const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => undefined);', { eval: true });
const batch = Array.from({ length: 650 }, (_, index) => Object.freeze(payload(index)));
rows.push(['postMessage of 650 frozen payloads, per payload', time(() => worker.postMessage(batch), 200) / batch.length]);
rows.push(['JSON.stringify of the same 650, per payload', time(() => (sink = JSON.stringify(batch)), 200) / batch.length]);
await worker.terminate();

console.log('| part | ns |\n| --- | ---: |');
for (const [name, ns] of rows) console.log(`| ${name} | ${ns.toFixed(0)} |`);
void sink;
