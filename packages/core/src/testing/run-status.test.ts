import { describe, expect, it } from 'vitest';
import type { RunResult } from '../contracts/run-result';
import { RunSuspendedError } from '../errors/run-suspended-error';
import { asComplete, asSuspended } from './run-status';

const suspended = { status: 'suspended', pendingApprovals: [{ toolCallId: 'c1', toolName: 'refund', arguments: {} }], text: '' } as unknown as RunResult<string>;
const complete = { status: 'complete', value: 'ok', text: 'ok', pendingApprovals: [] } as unknown as RunResult<string>;

describe('asComplete / asSuspended', () => {
  it('return the result narrowed when its status is the one asked for', () => {
    expect(asComplete(complete).value).toBe('ok');
    expect(asSuspended(suspended).pendingApprovals).toHaveLength(1);
  });

  it('throw what happened when it is not: the suspension names the waiting calls', () => {
    expect(() => asComplete(suspended)).toThrow(RunSuspendedError);
    expect(() => asComplete(suspended)).toThrow(/refund \(c1\) needs approval/);
    expect(() => asSuspended(complete)).toThrow(/The run completed \(text: "ok"\)/);
  });

  it.each([null, undefined, 42, 'complete', {}, { status: 'done' }])('refuse %j, which is not a run result, with a TypeError', (value) => {
    expect(() => asComplete(value as never)).toThrow(TypeError);
    expect(() => asSuspended(value as never)).toThrow(TypeError);
  });
});
