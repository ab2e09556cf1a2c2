import type { RunStepView, RuleRunView, ToolCallView } from './run-view';

/** What kind of loop a run is in. */
export type ActionLoopType = 'repeated-call' | 'same-error' | 'alternation' | 'repeated-reply';

/** A loop found in a run: the turn being judged would go round it once more. */
export interface ActionLoop {
  readonly type: ActionLoopType;
  /** Steps in one round of the loop (1 for a repeat, 2 for two calls in turn, ...). */
  readonly period: number;
  /** How many rounds the run already made, unchanged, before the turn being judged. */
  readonly rounds: number;
  /** The calls of one round, in order, with what they returned. */
  readonly calls: readonly Pick<ToolCallView, 'name' | 'failed' | 'resultPreview'>[];
}

/** Thresholds of {@link detectActionLoop}. */
export interface ActionLoopThresholds {
  /** Rounds of a one-step loop (the same calls, the same results) before asking again is a loop. Default 3. */
  readonly repeats?: number;
  /** Rounds of a longer loop (calls in turn, results unchanged) before asking again is a loop. Default 2. */
  readonly cycles?: number;
  /** The longest round looked for, in steps. Default 3. */
  readonly maxPeriod?: number;
}

/** One finished step as a move: what it asked for (`key`) and what came back (`outcome`). */
interface Move {
  readonly key: string;
  readonly outcome: string;
  readonly calls: readonly ToolCallView[];
}

const callKey = (call: { readonly name: string; readonly argumentsHash: string }): string => `${call.name}:${call.argumentsHash}`;

function moveOf(step: RunStepView): Move {
  const calls = [...step.toolCalls].sort((a, b) => (callKey(a) < callKey(b) ? -1 : callKey(a) > callKey(b) ? 1 : 0));
  return { key: calls.map(callKey).join(','), outcome: calls.map((call) => `${call.failed ? '!' : ''}${call.resultHash}`).join(','), calls };
}

const positive = (value: number | undefined, fallback: number): number => (value !== undefined && Number.isInteger(value) && value >= 1 ? value : fallback);

/** The fewest finished steps a loop needs before a turn can go round it, at these thresholds. */
export function stepsForLoop(thresholds: ActionLoopThresholds = {}): number {
  const repeats = positive(thresholds.repeats, 3);
  // A longer round has two steps at least.
  return positive(thresholds.maxPeriod, 3) >= 2 ? Math.min(repeats, 2 * positive(thresholds.cycles, 2)) : repeats;
}

/**
 * Whether the turn being judged (`run.turn`) goes round a loop the run is already in: the same
 * calls with the same arguments that returned the same results `repeats` times in a row
 * (`repeated-call`, or `same-error` when every one failed alike), calls in turn whose results did
 * not change over `cycles` rounds (`alternation`), or the same text-only reply (`repeated-reply`).
 * Results that change (polling) and arguments that change (pagination) are progress: no loop. So
 * is a round in which a check reports work under way (`pending`) and a wait or another call comes
 * between checks ("wait 30 s, then check the deploy"): polling, judged on the results.
 */
export function detectActionLoop(run: RuleRunView, thresholds: ActionLoopThresholds = {}): ActionLoop | undefined {
  const turn = run.turn;
  if (!turn) return undefined;
  const repeats = positive(thresholds.repeats, 3);
  if (turn.toolCalls.length === 0) {
    if (turn.replyHash === undefined) return undefined;
    const texts = run.steps.filter((step) => step.toolCalls.length === 0 && step.replyHash !== undefined);
    const last = texts.slice(-repeats);
    return last.length === repeats && last.every((step) => step.replyHash === turn.replyHash) ? { type: 'repeated-reply', period: 1, rounds: repeats, calls: [] } : undefined;
  }
  const proposed = turn.toolCalls.map(callKey).sort().join(',');
  const cycles = positive(thresholds.cycles, 2);
  const maxPeriod = positive(thresholds.maxPeriod, 3);
  // Only the latest steps can make a loop with the turn: the longest window any check reads.
  const moves = run.steps.slice(-Math.max(repeats, maxPeriod * cycles)).map(moveOf);
  const repeated = repeatOf(moves, proposed, repeats);
  if (repeated) return repeated;
  for (let period = 2; period <= maxPeriod; period++) {
    const found = cycleOf(moves, proposed, period, cycles);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether a round is polling: one of its calls reports work under way (`pending`) and another call
 * of the round (a wait, or any other action) comes between it and its next check. The state it
 * reports may have changed by then, so the round is never a loop, however alike its results.
 */
function isPolling(round: readonly Move[]): boolean {
  const calls = round.flatMap((move) => move.calls);
  return calls.some((call) => call.pending === true && calls.some((other) => callKey(other) !== callKey(call)));
}

function repeatOf(moves: readonly Move[], proposed: string, repeats: number): ActionLoop | undefined {
  if (moves.length < repeats) return undefined;
  const last = moves.slice(-repeats);
  const first = last[0] as Move;
  if (!last.every((move) => move.key === proposed && move.outcome === first.outcome)) return undefined;
  if (isPolling([first])) return undefined;
  const failed = first.calls.every((call) => call.failed);
  return { type: failed ? 'same-error' : 'repeated-call', period: 1, rounds: repeats, calls: first.calls.map(callOf) };
}

function cycleOf(moves: readonly Move[], proposed: string, period: number, cycles: number): ActionLoop | undefined {
  const length = period * cycles;
  if (moves.length < length) return undefined;
  const window = moves.slice(-length);
  const round = window.slice(0, period);
  // A round of one repeated move is a repeat, judged by its own threshold.
  if (round.every((move) => move.key === (round[0] as Move).key)) return undefined;
  for (let index = 0; index + period < length; index++) {
    const move = window[index] as Move;
    const again = window[index + period] as Move;
    if (move.key !== again.key || move.outcome !== again.outcome) return undefined;
  }
  if ((window[length - period] as Move).key !== proposed || isPolling(round)) return undefined;
  return { type: 'alternation', period, rounds: cycles, calls: window.slice(-period).flatMap((move) => move.calls.map(callOf)) };
}

const callOf = (call: ToolCallView): Pick<ToolCallView, 'name' | 'failed' | 'resultPreview'> => ({ name: call.name, failed: call.failed, resultPreview: call.resultPreview });
