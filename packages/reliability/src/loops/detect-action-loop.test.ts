import { describe, expect, it } from 'vitest';
import { legitimateTraces, loopingTraces, runView, stepView, type Trace, type TraceResult } from '../../test/loop-corpus';
import { canonicalHash, canonicalJson } from './canonical-hash';
import { detectActionLoop, stepsForLoop, type ActionLoop } from './detect-action-loop';
import type { RunStepView } from './run-view';

/** Runs a trace until the detector fires or the trace ends; returns the step it fired at. */
function firstDetection(trace: Trace, maxSteps = 40): { step: number; loop: ActionLoop } | undefined {
  const steps: RunStepView[] = [];
  const history: TraceResult[][] = [];
  for (let step = 1; step <= maxSteps; step++) {
    const calls = trace.next(step, history);
    if (!calls) return undefined;
    const loop = detectActionLoop(runView(steps, calls));
    if (loop) return { step, loop };
    const results = calls.map((call) => trace.world(call, step));
    history.push(results);
    steps.push(stepView(step, calls, results));
  }
  return undefined;
}

describe('detectActionLoop', () => {
  it('finds every loop of 200 looping traces by its third round', () => {
    const traces = loopingTraces(200);
    const late: string[] = [];
    for (const trace of traces) {
      const found = firstDetection(trace);
      // Rounds of the loop that ran before the turn that was judged a loop.
      const rounds = found ? (found.step - trace.loopStartsAt) / trace.period : Number.POSITIVE_INFINITY;
      if (rounds > 3) late.push(`${trace.name}: ${found ? `after ${rounds} rounds` : 'never'}`);
    }
    expect(late).toEqual([]);
  });

  it('names the kind of loop', () => {
    const kinds = new Map<string, string>();
    for (const trace of loopingTraces(8)) kinds.set(trace.name.replace(/-\d+$/, ''), firstDetection(trace)?.loop.type ?? 'none');
    expect(Object.fromEntries(kinds)).toEqual({ repeat: 'repeated-call', alternation: 'alternation', 'same-error': 'same-error', 'cycle-of-3': 'alternation' });
  });

  it('never fires on 200 legitimate traces (polling with and without waits, pagination, retries that succeed, reads after writes, refined searches)', () => {
    const fired = legitimateTraces(200)
      .map((trace) => ({ trace, found: firstDetection(trace) }))
      .filter(({ found }) => found !== undefined)
      .map(({ trace, found }) => `${trace.name} at step ${found?.step}`);
    expect(fired).toEqual([]);
  });

  it('takes a wait between checks of work under way as polling, judged on the results, not the names', () => {
    const wait = { name: 'pause', arguments: { seconds: 30 } };
    const check = { name: 'deploy_status', arguments: { id: 'd-1' } };
    const play = (status: string, beside: boolean) => {
      const steps: RunStepView[] = [];
      for (let step = 1; step <= 12; step++) {
        const calls = beside ? [wait, check] : [step % 2 ? wait : check];
        const loop = detectActionLoop(runView(steps, calls));
        if (loop) return `${loop.type} at step ${step}`;
        steps.push(stepView(step, calls, calls.map((call) => ({ result: call === wait ? 'waited 30 s' : { id: 'd-1', status }, failed: false }))));
      }
      return 'none';
    };
    expect(play('in_progress', false)).toBe('none');
    expect(play('in_progress', true)).toBe('none');
    // The same round whose check reports an ended state is a loop: nothing will change by waiting.
    expect(play('failed', false)).toBe('alternation at step 5');
    expect(play('failed', true)).toBe('repeated-call at step 4');
  });

  it('still takes the same check of work under way, asked again at once with nothing between, as a repeat', () => {
    const check = [{ name: 'deploy_status', arguments: { id: 'd-1' } }];
    const steps = [1, 2, 3].map((step) => stepView(step, check, [{ result: { status: 'in_progress' }, failed: false }]));
    expect(detectActionLoop(runView(steps, check))?.type).toBe('repeated-call');
  });

  it('takes arguments in any key order as the same call, and a changed result as progress', () => {
    const call = (order: 'ab' | 'ba') => [{ name: 'search', arguments: order === 'ab' ? { a: 1, b: 2 } : { b: 2, a: 1 } }];
    const same = [1, 2, 3].map((step) => stepView(step, call(step % 2 ? 'ab' : 'ba'), [{ result: 'x', failed: false }]));
    expect(detectActionLoop(runView(same, call('ba')))?.type).toBe('repeated-call');
    const changing = [1, 2, 3].map((step) => stepView(step, call('ab'), [{ result: `x${step === 3 ? '!' : ''}`, failed: false }]));
    expect(detectActionLoop(runView(changing, call('ab')))).toBeUndefined();
  });

  it('reads thresholds, and ignores ones that are not whole numbers', () => {
    const steps = [1, 2].map((step) => stepView(step, [{ name: 'q', arguments: {} }], [{ result: 1, failed: false }]));
    const view = runView(steps, [{ name: 'q', arguments: {} }]);
    expect(detectActionLoop(view)).toBeUndefined();
    expect(detectActionLoop(view, { repeats: 2 })?.rounds).toBe(2);
    expect(detectActionLoop(view, { repeats: Number.NaN })).toBeUndefined();
    expect(detectActionLoop(view, { repeats: -1 })).toBeUndefined();
  });

  it('has nothing to say without a turn, or on a turn with neither calls nor text', () => {
    expect(detectActionLoop({ steps: [], usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } })).toBeUndefined();
    expect(detectActionLoop(runView([], []))).toBeUndefined();
  });
});

describe('canonicalHash', () => {
  it('is the same for equal values in any key order, and differs for different ones', () => {
    expect(canonicalHash({ a: [1, { c: 3, b: 2 }] })).toBe(canonicalHash({ a: [1, { b: 2, c: 3 }] }));
    expect(canonicalHash({ a: 1 })).not.toBe(canonicalHash({ a: '1' }));
    expect(canonicalHash('1')).not.toBe(canonicalHash(1));
  });

  it('survives cycles, BigInts and throwing getters without throwing', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(canonicalJson(cyclic)).toBe('{"a":1,"self":"[cycle]"}');
    expect(() => canonicalHash({ big: 10n })).not.toThrow();
    const hostile = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(() => canonicalHash(hostile)).not.toThrow();
  });
});

describe('stepsForLoop', () => {
  it('is the fewest finished steps any loop needs: a repeat, or two rounds of two steps', () => {
    expect(stepsForLoop()).toBe(3);
    expect(stepsForLoop({ repeats: 5, cycles: 1 })).toBe(2);
    expect(stepsForLoop({ repeats: 4, maxPeriod: 1 })).toBe(4);
    expect(stepsForLoop({ repeats: 1 })).toBe(1);
  });
});
