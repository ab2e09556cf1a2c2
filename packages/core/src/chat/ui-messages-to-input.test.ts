import { describe, expect, it } from 'vitest';
import { uiMessagesToInput } from './ui-messages-to-input';
import type { UIMessageLike } from './ui-message-like';

const SUSPENSION = '0b0c6a4e-6f1d-4c55-9a43-7c0d1f6f2a10';
const user = (id: string, text: string): UIMessageLike => ({ id, role: 'user', parts: [{ type: 'text', text } as { type: string }] });
const assistant = (parts: readonly object[]): UIMessageLike => ({ id: 'a1', role: 'assistant', parts: parts as { type: string }[] });

describe('uiMessagesToInput', () => {
  it('starts a run on the conversation: files as attachments, a data URL inline', () => {
    const message = { id: 'u1', role: 'user' as const, parts: [{ type: 'text', text: 'What is in this?' }, { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=' }] };
    expect(uiMessagesToInput([message])).toEqual({ type: 'start', messages: [{ role: 'user', content: 'What is in this?', attachments: [{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }] }] });
  });

  it('resumes the suspension named by the approvals the client answered, with its decisions', () => {
    const asked = assistant([
      { type: 'step-start' },
      { type: 'text', text: 'Refunding both.' },
      { type: 'tool-refund', toolCallId: 'r1', state: 'approval-responded', input: { order: 'A7' }, approval: { id: `${SUSPENSION}:r1`, approved: true } },
      { type: 'tool-refund', toolCallId: 'r2', state: 'approval-responded', input: { order: 'B2' }, approval: { id: `${SUSPENSION}:r2`, approved: false, reason: 'over the limit' } },
    ]);
    const input = uiMessagesToInput([user('u1', 'refund A7 and B2'), asked]);
    // No conversation to run again: a route can only resume (running it again would ask for the same approval).
    expect(input).toEqual({ type: 'resume', suspensionId: SUSPENSION, decisions: { approve: ['r1'], reject: [{ id: 'r2', reason: 'over the limit' }] } });
  });

  it('starts a run when the approvals wait unanswered and the user wrote again, leaving the waiting call out', () => {
    const waiting = assistant([{ type: 'step-start' }, { type: 'tool-refund', toolCallId: 'r1', state: 'approval-requested', input: { order: 'A7' }, approval: { id: `${SUSPENSION}:r1` } }]);
    const input = uiMessagesToInput([user('u1', 'refund A7'), waiting, user('u2', 'never mind')]);
    expect(input).toEqual({ type: 'start', messages: [{ role: 'user', content: 'refund A7' }, { role: 'user', content: 'never mind' }] });
  });

  it('keeps an earlier turn: a tool result, an error, and a denied call as a rejected result', () => {
    const earlier = assistant([
      { type: 'step-start' },
      { type: 'tool-lookup', toolCallId: 'l1', state: 'output-available', input: { id: 1 }, output: { found: true } },
      { type: 'dynamic-tool', toolName: 'search', toolCallId: 's1', state: 'output-error', input: {}, errorText: 'An error occurred.' },
      { type: 'tool-refund', toolCallId: 'r1', state: 'output-denied', input: { order: 'A7' }, approval: { id: `${SUSPENSION}:r1`, approved: false, reason: 'no' } },
      { type: 'step-start' },
      { type: 'text', text: 'Done.' },
    ]);
    const input = uiMessagesToInput([user('u1', 'go'), earlier, user('u2', 'thanks')]);
    expect(input).toEqual({ type: 'start', messages: [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'l1', name: 'lookup', arguments: { id: 1 } },
          { type: 'tool-call', id: 's1', name: 'search', arguments: {} },
          { type: 'tool-call', id: 'r1', name: 'refund', arguments: { order: 'A7' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'l1', toolName: 'lookup', output: '{"found":true}', isError: false },
          { type: 'tool-result', toolCallId: 's1', toolName: 'search', output: 'An error occurred.', isError: true },
          { type: 'tool-result', toolCallId: 'r1', toolName: 'refund', output: 'Error [approval-rejected]: this call was not approved, so the tool did not run (the reason given: "no")', isError: true },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      { role: 'user', content: 'thanks' },
    ] });
  });

  it('leaves out parts it does not know and approvals it did not make', () => {
    const odd = assistant([{ type: 'reasoning', text: 'hmm' }, { type: 'tool-x', toolCallId: 'x1', state: 'approval-responded', input: {}, approval: { id: 'x1', approved: true } }]);
    expect(uiMessagesToInput([user('u1', 'hi'), odd])).toEqual({ type: 'start', messages: [{ role: 'user', content: 'hi' }] });
  });
});
