import { describe, expect, it } from 'vitest';
import { ReliabilityFailFastError } from '../index';
import { asComplete } from '../testing/index';
import { recorder } from '../testing/event-recorder';
import { VALID, BAD_AMOUNT, BAD_ACTION, refundAgent, runError } from './strict-output-fixture';

describe('strict output through the gate', () => {
  it('counts every attempt in usage, the result and run.end', async () => {
    const events = recorder('run.end');
    const { builder } = refundAgent([
      { text: BAD_AMOUNT, usage: { inputTokens: 100, outputTokens: 10 } },
      { text: BAD_ACTION, usage: { inputTokens: 200, outputTokens: 20 } },
      { text: VALID, usage: { inputTokens: 300, outputTokens: 30 } },
    ]);
    const result = await events.attach(builder).build().run('Refund order 42');

    expect(result.attempts).toHaveLength(3);
    expect(result.usage.modelCalls).toBe(result.attempts.length);
    expect(result.usage.inputTokens).toBe(600);
    expect(result.usage.outputTokens).toBe(60);
    const ends = events.of('run.end');
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ status: 'complete', modelCalls: 3, inputTokens: 600, outputTokens: 60 });
  });

  it('counts failed attempts in run.end when the run fails', async () => {
    const events = recorder('run.end');
    const { builder } = refundAgent({ text: BAD_AMOUNT, usage: { inputTokens: 100, outputTokens: 10 } });
    await expect(events.attach(builder).build().run('Refund order 42')).rejects.toThrow(ReliabilityFailFastError);

    expect(events.of('run.end')[0]).toMatchObject({ status: 'failed', modelCalls: 2, inputTokens: 200, outputTokens: 20 });
  });

  it('continues an answer cut at the token limit (finish reason length), without schema feedback', async () => {
    const events = recorder('validation.failed');
    const { model, builder } = refundAgent([{ text: '{"action":"refund","amo', finishReason: 'length' }, 'unt":50}']);
    const result = asComplete(await events.attach(builder).build().run('Refund order 42'));

    expect(model.calls).toBe(2);
    expect(model.requests[1]?.continueFrom).toBe('{"action":"refund","amo');
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(events.of('validation.failed')).toHaveLength(0);
  });

  it('fails fast with errorKind truncated on finish reason length when continuation is off', async () => {
    const { model, builder } = refundAgent([{ text: '{"action":"refund","amo', finishReason: 'length' }, VALID], { continuation: false });
    const error = await runError(builder);

    expect(model.calls).toBe(1);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).errorKind).toBe('truncated');
  });
});
