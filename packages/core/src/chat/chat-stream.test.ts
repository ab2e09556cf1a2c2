import { describe, expect, it } from 'vitest';
import { RunStateError } from '../index';
import { refundDesk } from '../testing/refund-desk';
import { chatStream } from './chat-stream';
import { memorySuspendedRuns } from './suspended-runs';
import type { UIMessageLike } from './ui-message-like';

const ask: UIMessageLike = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'refund A7' } as { type: string }] };
const answered = (approvalId: string, approved: boolean): UIMessageLike => ({
  id: 'a1',
  role: 'assistant',
  parts: [{ type: 'step-start' }, { type: 'tool-refund', toolCallId: 'r1', state: 'approval-responded', input: { order: 'A7' }, approval: { id: approvalId, approved } } as { type: string }],
});

describe('chatStream', () => {
  it('keeps a suspended run before asking, then resumes it from the answered approval, never starting it again', async () => {
    const { agent, model, refunds } = refundDesk();
    const suspended = memorySuspendedRuns();
    const first = await chatStream(agent, [ask], { suspended });
    const result = await first.result;
    if (result.status !== 'suspended') throw new Error('expected a suspension');
    // The state was kept before the stream's result part.
    expect(suspended.get(result.state.suspensionId)).toBe(result.state);
    const second = await chatStream(agent, [ask, answered(`${result.state.suspensionId}:r1`, true)], { suspended });
    const done = await second.result;
    expect(done.status === 'complete' && done.text).toBe('Refunded A7.');
    expect(refunds).toEqual(['A7']);
    expect(model.calls).toBe(2);
  });

  it('refuses an approval of a suspension it does not keep, running nothing', async () => {
    const { agent, model } = refundDesk();
    const stream = await chatStream(agent, [ask, answered('0b0c6a4e-6f1d-4c55-9a43-7c0d1f6f2a10:r1', true)], { suspended: memorySuspendedRuns() });
    await expect(stream.result).rejects.toSatisfy((error) => RunStateError.isInstance(error) && error.problem === 'malformed');
    expect(model.calls).toBe(0);
  });
});
