import type { ErrorKind } from '@keel/reliability';
import type { AgentStreamPart } from '../../contracts/stream-part';
import type { RunContext } from '../state/run-context';
import { partialsAttempt, partialsShown, resetPartials, settlePartials } from './partial-output';

/** Text a pass-through stream shows of the answer being written, per attempt, in order. */
interface Shown {
  readonly attempt: number;
  text: string;
  /** Whether `partial-output` parts of that attempt were shown too. */
  partials: boolean;
}

/** What one run's stream shows of the answer of its current step call. */
interface AnswerState {
  /** The text a reader following the documented rules shows now, by attempt (a continued answer spans attempts). */
  shown: Shown[];
  /** The current attempt's text deltas, held until its reply is judged: `undefined` when text passes through. */
  held: string[] | undefined;
  /** The current attempt replies to a patch request or continues cut output: its partials are settled once it is judged. */
  pending: boolean;
  /** Whether the current provider call has shown text to a pass-through stream. */
  shownText: boolean;
}

const states = new WeakMap<RunContext, AnswerState>();

function stateOf(run: RunContext): AnswerState {
  let state = states.get(run);
  if (state === undefined) {
    state = { shown: [], held: undefined, pending: false, shownText: false };
    states.set(run, state);
  }
  return state;
}

/** A provider call begins: it has shown no text yet. */
export function noTextShown(run: RunContext): void {
  const state = states.get(run);
  if (state) state.shownText = false;
}

/**
 * An attempt of a step's call begins. A reply to a patch request or a continuation of cut output
 * is not the answer as it stands (the patched value, the joined text is): its text and partials
 * are held until it is judged (see `settleAnswer`). A new answer (no continuation) first takes
 * back, with a `retry` part each, the text of a continued answer that a `retry` left shown.
 */
export function beginAnswerAttempt(run: RunContext, attempt: number, pending: { readonly continues: boolean; readonly patch: boolean }): void {
  const state = stateOf(run);
  const previous = state.shown[state.shown.length - 1];
  if (previous?.attempt === attempt - 1 && partialsShown(run)) previous.partials = true;
  if (attempt === 1) state.shown = [];
  else if (!pending.continues) for (const left of state.shown.splice(0)) discard(run, left, 'truncated');
  state.pending = pending.continues || pending.patch;
  // Where text flows as it comes: pass-through, or any run without an output schema.
  const holds = state.pending && (run.sink?.mode === 'pass-through' || !run.config.output);
  state.held = holds ? [] : undefined;
  resetPartials(run, { continues: pending.continues, holds });
}

/**
 * Text of the answer being written: shown at once (a `text-delta` part), or held while the attempt
 * is a patch reply or a continuation. Returns whether it was shown.
 */
export function showAnswerText(run: RunContext, attempt: number, text: string): boolean {
  const state = stateOf(run);
  if (state.held !== undefined) {
    state.held.push(text);
    return false;
  }
  const last = state.shown[state.shown.length - 1];
  if (last?.attempt === attempt) last.text += text;
  else state.shown.push({ attempt, text, partials: false });
  state.shownText = true;
  run.sink?.push({ type: 'text-delta', step: run.step, attempt, text });
  return true;
}

/**
 * The attempt's reply was judged as `judged` (the joined or patched whole, or the reply as it is):
 * a reader following the documented rules is made to show exactly that text. Held text that
 * extends what is shown into it passes as it came; otherwise what is shown is extended by the
 * rest of `judged`, or, when `judged` does not start with it (a continuation that started the
 * value over), taken back with a `retry` part per attempt and `judged` shown whole. Partials
 * follow the same text (see `settlePartials`).
 */
export function settleAnswer(run: RunContext, attempt: number, judged: string): void {
  const state = states.get(run);
  if (!state?.pending || !run.sink) return;
  state.pending = false;
  const held = state.held;
  state.held = undefined;
  // Nothing streamed (a provider without `stream()`): no text parts, as for any other attempt.
  if (held !== undefined && (held.length > 0 || state.shown.length > 0)) {
    const shown = state.shown.map((entry) => entry.text).join('');
    if (shown + held.join('') === judged) for (const text of held) showAnswerText(run, attempt, text);
    else if (judged.startsWith(shown)) {
      if (judged.length > shown.length) showAnswerText(run, attempt, judged.slice(shown.length));
    } else {
      for (const left of state.shown.splice(0)) discard(run, left, 'truncated');
      if (judged.length > 0) showAnswerText(run, attempt, judged);
    }
  }
  settlePartials(run, attempt, judged);
}

/** A `retry` part for `attempt`: it takes back that attempt's text and partials where they were shown. */
export function retryPart(run: RunContext, attempt: number, errorKind: ErrorKind): AgentStreamPart<unknown> {
  const state = states.get(run);
  const index = state?.shown.findIndex((entry) => entry.attempt === attempt) ?? -1;
  if (state && index >= 0) state.shown.splice(index, 1);
  return { type: 'retry', step: run.step, attempt, errorKind, discardStreamedText: state?.shownText === true, discardPartialOutput: partialsShown(run) };
}

function discard(run: RunContext, left: Shown, errorKind: ErrorKind): void {
  run.sink?.push({ type: 'retry', step: run.step, attempt: left.attempt, errorKind, discardStreamedText: left.text.length > 0, discardPartialOutput: left.partials });
}

/**
 * A fallback tier answers instead of the step's attempts: partials they left shown (the last
 * attempt's, a continued answer's cut attempts') are taken back, with a `retry` part each of that
 * attempt's failure kind, `discardPartialOutput: true`, so the value shown never jumps from one
 * answer to another unannounced. Their text is left as it is.
 */
export function abandonPartials(run: RunContext): void {
  const state = states.get(run);
  const attempts = new Set((state?.shown ?? []).filter((entry) => entry.partials).map((entry) => entry.attempt));
  if (partialsShown(run)) attempts.add(partialsAttempt(run));
  for (const entry of state?.shown ?? []) entry.partials = false;
  for (const attempt of [...attempts].sort((a, b) => a - b)) {
    const record = [...run.ledger.attempts].reverse().find((each) => each.step === run.step && each.attempt === attempt && each.purpose === 'step');
    run.sink?.push({ type: 'retry', step: run.step, attempt, errorKind: record?.errorKind ?? 'unknown', discardStreamedText: false, discardPartialOutput: true });
  }
}
