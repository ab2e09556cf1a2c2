import type { AgentStreamPart } from '../../contracts/stream-part';
import type { AttemptOutcome } from '../attempt/attempt-outcome';
import { parsePartialJson } from './partial-json';
import type { RunContext } from '../state/run-context';

/** What one run's stream has shown of the answer being written: reset at every attempt. */
interface PartialState {
  text: string;
  /** JSON of the last value emitted, to emit only on change. */
  last: string | undefined;
  /** Partials held back (buffer mode) until the attempt's answer is accepted. */
  held: AgentStreamPart<unknown>[];
  /** Whether partials of the current attempt reached the consumer. */
  shown: boolean;
  /** The attempt of the last partial read. */
  attempt: number;
  /** A tool call began in this attempt: its text is not the answer, so no partials. */
  off: boolean;
  /** Characters added since the text was last read. */
  unread: number;
  /** Pass-through, a patch reply or a continuation: partials are held until the reply is judged (see `settlePartials`). */
  holding: boolean;
}

/**
 * Characters to add before the text is read again: every delta while it is short, then a
 * sixty-fourth of its length, so a long answer is read a bounded number of times per doubling
 * (the work stays linear in its length) while a short one updates on every delta.
 */
const readEvery = (length: number) => Math.max(1, Math.floor(length / 64));

const states = new WeakMap<RunContext, PartialState>();

function stateOf(run: RunContext): PartialState {
  let state = states.get(run);
  if (state === undefined) {
    state = { text: '', last: undefined, held: [], shown: false, attempt: 0, off: false, unread: 0, holding: false };
    states.set(run, state);
  }
  return state;
}

/**
 * Starts an attempt's partials: afresh (the previous attempt's are dropped, held ones never shown),
 * or, for a continuation of cut output, reading on from the cut text. With `holds`, the attempt's
 * partials are held until its reply is judged (see `settlePartials`).
 */
export function resetPartials(run: RunContext, options: { readonly continues?: boolean; readonly holds?: boolean } = {}): void {
  const state = stateOf(run);
  if (options.continues !== true) {
    state.text = '';
    state.last = undefined;
  }
  if (options.continues !== true || run.sink?.mode !== 'buffer') state.held = [];
  state.shown = false;
  state.off = false;
  state.unread = 0;
  state.holding = options.holds === true;
}

/**
 * No partials for the rest of this attempt (a tool call started: the text is not the final answer).
 * Partials it already showed are taken back the one way partials are: a `retry` part with
 * `discardPartialOutput` (`errorKind: 'ok'`, the turn did not fail; a later step writes the answer).
 */
export function stopPartials(run: RunContext, attempt: number): void {
  const state = stateOf(run);
  if (state.off) return;
  state.off = true;
  if (!state.shown || !run.sink) return;
  state.shown = false;
  run.sink.push({ type: 'retry', step: run.step, attempt, errorKind: 'ok', discardStreamedText: false, discardPartialOutput: true });
}

/**
 * Adds text of the answer being written and emits a `partial-output` part when the value read so
 * far changed: at once in pass-through mode, held until the answer is accepted in buffer mode.
 */
export function addPartialText(run: RunContext, attempt: number, delta: string): void {
  const sink = run.sink;
  if (!sink || !run.config.output) return;
  const state = stateOf(run);
  if (state.off) return;
  state.text += delta;
  state.unread += delta.length;
  if (state.unread < readEvery(state.text.length)) return;
  emitPartial(run, state, attempt);
}

/** The stream finished: text added since the last read is read now, so the last partial is the whole answer. */
export function finishPartials(run: RunContext, attempt: number): void {
  const state = states.get(run);
  if (!state || state.off || state.unread === 0 || !run.sink || !run.config.output) return;
  emitPartial(run, state, attempt);
}

function emitPartial(run: RunContext, state: PartialState, attempt: number): void {
  const sink = run.sink;
  if (!sink) return;
  state.unread = 0;
  state.attempt = attempt;
  const value = parsePartialJson(state.text);
  if (value === undefined) return;
  const json = JSON.stringify(value);
  if (json === state.last) return;
  state.last = json;
  const part: AgentStreamPart<unknown> = { type: 'partial-output', step: run.step, attempt, value };
  if (sink.mode === 'pass-through' && !state.holding) {
    state.shown = true;
    sink.push(part);
  } else state.held.push(part);
}

/**
 * A patch reply or a continuation was judged as `judged` (the patched or joined whole): partials
 * read from the same text stand (held ones of a pass-through stream are shown now); partials that
 * read other text (a patch, a fragment, a join that dropped a repeat) are dropped for one read of
 * `judged`, so a partial is always of the value, never of a patch or a fragment alone.
 */
export function settlePartials(run: RunContext, attempt: number, judged: string): void {
  const state = states.get(run);
  const sink = run.sink;
  if (!state || !sink || !run.config.output || state.off) return;
  const holding = state.holding;
  state.holding = false;
  if (state.text === judged) {
    if (!holding) return;
    for (const part of state.held) sink.push(part);
    state.shown ||= state.held.length > 0;
    state.held = [];
    return;
  }
  // Nothing was streamed (a provider without `stream()`): no partials, as for any other attempt.
  if (state.text === '') return;
  state.held = [];
  state.text = judged;
  state.last = undefined;
  emitPartial(run, state, attempt);
}

/** Whether partials of the current attempt were shown (a `retry` part then tells consumers to drop them). */
export function partialsShown(run: RunContext): boolean {
  return states.get(run)?.shown === true;
}

/** The attempt whose partials were last read: the current one (see `partialsShown`). */
export function partialsAttempt(run: RunContext): number {
  return states.get(run)?.attempt ?? 0;
}

/** The attempt's answer was accepted: held partials (buffer mode) are shown now, in order. */
export function releasePartials(run: RunContext): void {
  const state = states.get(run);
  if (!state || !run.sink) return;
  for (const part of state.held) run.sink.push(part);
  state.held = [];
}

/**
 * A step's outcome as the stream shows it: a final answer's held partials (buffer mode), then an
 * `output` part with the value (the model's validated one, or a fallback tier's). Nothing for a
 * tool-call turn.
 */
export function showOutput(run: RunContext, outcome: AttemptOutcome<unknown>): void {
  const sink = run.sink;
  if (!sink) return;
  if (outcome.type === 'fallback') {
    resetPartials(run);
    sink.push({ type: 'output', step: run.step, value: outcome.fallback.value });
    return;
  }
  if (outcome.type !== 'accepted') return;
  const verdict = outcome.verdict;
  if (verdict === undefined || (verdict.status === 'valid' && verdict.purpose === 'tool-call-turn')) return;
  const value = verdict.status === 'valid' ? verdict.value : verdict.status === 'invalid' ? verdict.partialValue : undefined;
  releasePartials(run);
  sink.push({ type: 'output', step: run.step, value });
}
