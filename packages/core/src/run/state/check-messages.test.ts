import { describe, expect, it } from 'vitest';
import { AgentConfigurationError } from '../../errors/agent-configuration-error';
import { checkMessages } from './check-messages';

const user = (attachments: unknown) => [{ role: 'user', content: 'What is in it?', attachments }];

describe('checkMessages: user attachments', () => {
  it('takes images and files with a media type and exactly one of data and url', () => {
    const messages = user([
      { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf', filename: 'a.pdf' },
    ]);
    expect(checkMessages(messages, 'run.input')).toBe(messages);
  });

  it.each([
    ['not a list', { type: 'image' }, /attachments are not a list/],
    ['a string', ['photo.png'], /attachment that is not an object/],
    ['another type', [{ type: 'audio', mediaType: 'audio/wav', data: 'AA==' }], /neither an image nor a file/],
    ['no media type', [{ type: 'image', data: 'AA==' }], /image attachment without a media type/],
    ['both sources', [{ type: 'image', mediaType: 'image/png', data: 'AA==', url: 'https://example.com/a.png' }], /exactly one of data \(base64\) and url/],
    ['no source', [{ type: 'file', mediaType: 'application/pdf' }], /exactly one of data/],
    ['bytes, not base64', [{ type: 'image', mediaType: 'image/png', data: new Uint8Array([1]) }], /exactly one of data/],
  ])('refuses attachments that are %s, naming the message', (_what, attachments, message) => {
    const check = () => checkMessages(user(attachments), 'run.input');
    expect(check).toThrow(AgentConfigurationError);
    expect(check).toThrow(message);
    expect(check).toThrow(/message 0/);
  });
});
