import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { uiMessagesToInput } from './ui-messages-to-input';

describe('uiMessagesToInput', () => {
  it('sends a data URL image inline and a hosted file by URL, with the text', () => {
    const message: UIMessage = {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'text', text: 'What is in these?' },
        { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=' },
        { type: 'file', mediaType: 'application/pdf', filename: 'invoice.pdf', url: 'https://127.0.0.1/files/invoice.pdf' },
      ],
    };
    expect(uiMessagesToInput([message])).toEqual([
      {
        role: 'user',
        content: 'What is in these?',
        attachments: [
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'file', mediaType: 'application/pdf', filename: 'invoice.pdf', url: 'https://127.0.0.1/files/invoice.pdf' },
        ],
      },
    ]);
  });

  it('leaves out a tool call that has no result yet (one waiting for approval)', () => {
    const message: UIMessage = {
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'text', text: 'Refunding.' },
        { type: 'tool-refund', toolCallId: 'r1', state: 'approval-requested', input: { order: 'A7' }, approval: { id: 'r1' } },
      ],
    };
    expect(uiMessagesToInput([message])).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'Refunding.' }] }]);
  });

  it('keeps a failed tool call as an error result', () => {
    const message: UIMessage = {
      id: 'a1',
      role: 'assistant',
      parts: [{ type: 'step-start' }, { type: 'tool-lookup', toolCallId: 'l1', state: 'output-error', input: { id: 1 }, errorText: 'not found' }],
    };
    expect(uiMessagesToInput([message])).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', id: 'l1', name: 'lookup', arguments: { id: 1 } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'l1', toolName: 'lookup', output: 'not found', isError: true }] },
    ]);
  });
});
