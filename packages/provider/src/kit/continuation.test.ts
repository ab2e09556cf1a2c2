import { describe, expect, it } from 'vitest';
import type { Message } from '../spec/message';
import { CONTINUE_INSTRUCTION, withContinuation } from './continuation';

const messages: readonly Message[] = [{ role: 'user', content: 'List the items.' }];

describe('withContinuation', () => {
  it('with prefill: the cut text, without trailing white space, as a trailing ephemeral assistant message', () => {
    expect(withContinuation(messages, '{"items": [1, \n', { prefill: true })).toEqual([...messages, { role: 'assistant', content: [{ type: 'text', text: '{"items": [1,' }], ephemeral: true }]);
  });

  it('without prefill: the cut text, then the instruction to continue, both ephemeral', () => {
    expect(withContinuation(messages, '{"items": [1,', { prefill: false })).toEqual([
      ...messages,
      { role: 'assistant', content: [{ type: 'text', text: '{"items": [1,' }], ephemeral: true },
      { role: 'user', content: CONTINUE_INSTRUCTION, ephemeral: true },
    ]);
  });

  it('without a cut text (absent, empty or white space), the messages as they are', () => {
    for (const continueFrom of [undefined, '', ' \n ']) expect(withContinuation(messages, continueFrom, { prefill: false })).toBe(messages);
  });
});
