import { describe, expect, it } from 'vitest';
import { attachmentSource, attachmentUrl } from './attachments';

describe('attachments', () => {
  it('inline bytes are base64, and a data: URL when one URL is wanted', () => {
    const image = { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' } as const;
    expect(attachmentSource(image)).toEqual({ type: 'base64', data: 'iVBORw0KGgo=' });
    expect(attachmentUrl(image)).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('a URL stays the URL', () => {
    const file = { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/invoice.pdf' } as const;
    expect(attachmentSource(file)).toEqual({ type: 'url', url: 'https://example.com/invoice.pdf' });
    expect(attachmentUrl(file)).toBe('https://example.com/invoice.pdf');
  });
});
