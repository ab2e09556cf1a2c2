import { canonicalHash } from '../src/loops/canonical-hash';
import { loopResultPending } from '../src/loops/loop-pending';
import type { ProposedCallView, RunStepView, RuleRunView, ToolCallView } from '../src/loops/run-view';

/** A tool call a scripted agent makes in a trace. */
export interface TraceCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** What a scripted tool returns: its result, and whether it failed. */
export interface TraceResult {
  readonly result: unknown;
  readonly failed: boolean;
}

/** A scripted run: the calls of each step, and what the world returns for each. */
export interface Trace {
  readonly name: string;
  /** The calls of step `step` (1-based), given what earlier steps returned; `undefined` ends the run with an answer. */
  readonly next: (step: number, history: readonly (readonly TraceResult[])[]) => readonly TraceCall[] | undefined;
  readonly world: (call: TraceCall, step: number) => TraceResult;
}

/** A deterministic pseudo-random source (mulberry32), so a corpus is the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** The finished step of a trace, as `scope.run` carries it. */
export function stepView(step: number, calls: readonly TraceCall[], results: readonly TraceResult[]): RunStepView {
  return {
    step,
    toolCalls: calls.map(
      (call, index): ToolCallView => {
        const outcome = results[index] as TraceResult;
        const text = JSON.stringify(outcome.result);
        return { id: `c${step}-${index}`, name: call.name, argumentsHash: canonicalHash(call.arguments), resultHash: canonicalHash(outcome.result), failed: outcome.failed, pending: !outcome.failed && loopResultPending(text), resultPreview: text.slice(0, 200) };
      },
    ),
  };
}

/** The view of a run whose finished steps are `steps` and whose turn asks for `calls`. */
export function runView(steps: readonly RunStepView[], calls: readonly TraceCall[]): RuleRunView {
  return { steps, turn: { toolCalls: calls.map((call): ProposedCallView => ({ name: call.name, argumentsHash: canonicalHash(call.arguments) })) }, usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } };
}

const TOOLS = ['search', 'read_file', 'list_dir', 'query', 'fetch_page', 'get_status'];

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** Arguments with their keys in a random order: key order is never progress. */
function argumentsOf(random: () => number, seed: string): Record<string, unknown> {
  const entries: [string, unknown][] = [
    ['q', seed],
    ['limit', 10],
    ['path', `/data/${seed}`],
  ];
  entries.sort(() => random() - 0.5);
  return Object.fromEntries(entries.slice(0, 1 + Math.floor(random() * 3)).concat([['id', seed]]));
}

/** Steps of honest progress first (different arguments each time), so loops start anywhere. */
function leadIn(random: () => number, label: string): TraceCall[] {
  const count = Math.floor(random() * 4);
  return Array.from({ length: count }, (_, index) => ({ name: pick(random, TOOLS), arguments: argumentsOf(random, `${label}-lead-${index}`) }));
}

/** A looping trace: after a lead-in, one round of `round` goes on forever with unchanged results. */
function loopTrace(name: string, random: () => number, round: readonly TraceCall[], failing: boolean): LoopingTrace {
  const lead = leadIn(random, name);
  const shuffled = (call: TraceCall): TraceCall => ({ name: call.name, arguments: Object.fromEntries(Object.entries(call.arguments).sort(() => random() - 0.5)) });
  return {
    name,
    loopStartsAt: lead.length + 1,
    period: round.length,
    next: (step) => {
      if (step <= lead.length) return [lead[step - 1] as TraceCall];
      return [shuffled(round[(step - lead.length - 1) % round.length] as TraceCall)];
    },
    world: (call) => (failing ? { result: { error: `${call.name} failed: connection refused` }, failed: true } : { result: { rows: [`${call.name}:${String(call.arguments['id'])}`], total: 1 }, failed: false }),
  };
}

/** A looping trace and where its loop starts. */
export interface LoopingTrace extends Trace {
  /** The step whose call is the loop's first. */
  readonly loopStartsAt: number;
  /** Steps in one round of the loop. */
  readonly period: number;
}

/** `count` looping traces: repeats, alternations of 2 and 3 calls, the same failing call, mixed lead-ins. */
export function loopingTraces(count: number, seed = 1): LoopingTrace[] {
  const random = seeded(seed);
  const traces: LoopingTrace[] = [];
  for (let index = 0; index < count; index++) {
    const shape = index % 4;
    const call = (label: string): TraceCall => ({ name: pick(random, TOOLS), arguments: argumentsOf(random, `${index}-${label}`) });
    if (shape === 0) traces.push(loopTrace(`repeat-${index}`, random, [call('a')], false));
    else if (shape === 1) traces.push(loopTrace(`alternation-${index}`, random, [call('a'), call('b')], false));
    else if (shape === 2) traces.push(loopTrace(`same-error-${index}`, random, [call('a')], true));
    else traces.push(loopTrace(`cycle-of-3-${index}`, random, [call('a'), call('b'), call('c')], false));
  }
  return traces;
}

/**
 * Polling with a wait between checks: wait, then check a deploy that says `in_progress` (the same
 * answer each time) until it is done; the wait in a step of its own, or beside the check.
 */
function waitThenCheck(index: number, length: number, beside: boolean): Trace {
  const wait: TraceCall = { name: 'wait', arguments: { seconds: 30 } };
  const check: TraceCall = { name: 'get_status', arguments: { deploy: `d-${index}` } };
  return {
    name: `wait-then-check-${index}`,
    next: (step) => (step > length ? undefined : beside ? [wait, check] : [step % 2 === 1 ? wait : check]),
    world: (call, step) => ({ result: call.name === 'wait' ? 'waited 30 s' : { deploy: `d-${index}`, status: step < length - 1 ? 'in_progress' : 'succeeded' }, failed: false }),
  };
}

/** `count` legitimate traces: polling until done (with or without a wait between checks), pagination, retries that succeed, reads after writes, searches that change. */
export function legitimateTraces(count: number, seed = 2): Trace[] {
  const random = seeded(seed);
  const traces: Trace[] = [];
  for (let index = 0; index < count; index++) {
    const shape = index % 6;
    const length = 4 + Math.floor(random() * 10);
    if (shape === 0) {
      // Polling a job: the same call, a result that changes (progress) until it is done.
      const call: TraceCall = { name: 'get_status', arguments: { job: `job-${index}` } };
      traces.push({ name: `polling-${index}`, next: (step) => (step <= length ? [call] : undefined), world: (_, step) => ({ result: { state: step < length ? 'running' : 'done', progress: Math.round((step / length) * 100) }, failed: false }) });
    } else if (shape === 1) {
      // Pagination: the same tool, a cursor that moves; pages may even repeat their content.
      traces.push({ name: `pagination-${index}`, next: (step) => (step <= length ? [{ name: 'query', arguments: { table: 'orders', cursor: step * 50 } }] : undefined), world: () => ({ result: { rows: [] }, failed: false }) });
    } else if (shape === 2) {
      // Retries that succeed: the same call fails alike once or twice, then answers.
      const failures = 1 + Math.floor(random() * 2);
      const call: TraceCall = { name: 'fetch_page', arguments: { url: `http://127.0.0.1:9/page-${index}` } };
      traces.push({ name: `retry-succeeds-${index}`, next: (step) => (step <= failures + 1 ? [call] : undefined), world: (_, step) => (step <= failures ? { result: { error: 'timeout' }, failed: true } : { result: { body: 'ok' }, failed: false }) });
    } else if (shape === 3) {
      // Reading a file again after each write to it: what is read changes.
      traces.push({
        name: `read-after-write-${index}`,
        next: (step) => (step <= length ? [step % 2 === 1 ? { name: 'read_file', arguments: { path: 'notes.md' } } : { name: 'write_file', arguments: { path: 'notes.md', text: `draft ${step}` } }] : undefined),
        world: (call, step) => ({ result: call.name === 'read_file' ? { text: `draft ${step - 1}` } : { written: true }, failed: false }),
      });
    } else if (shape === 5) {
      traces.push(waitThenCheck(index, length + 4, random() < 0.3));
    } else {
      // A search refined each step: the arguments change, results may repeat.
      traces.push({ name: `refined-search-${index}`, next: (step) => (step <= length ? [{ name: 'search', arguments: { q: `refund policy ${'v'.repeat(step)}` } }] : undefined), world: () => ({ result: { hits: 0 }, failed: false }) });
    }
  }
  return traces;
}
