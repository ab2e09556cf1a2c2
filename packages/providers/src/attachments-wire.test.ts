import { type ModelRequest, ProviderError } from '@keel/provider';
import { jsonReply, wireServerPerTest } from '@keel/wire-server';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { openai } from './openai/openai-provider';
import { anthropicTextAnswer } from './testing/fixtures/anthropic-fixtures';
import { openAITextAnswer } from './testing/fixtures/openai-fixtures';
import { assertValidAnthropicRequest } from './testing/validate-anthropic-request';
import { assertValidOpenAIRequest } from './testing/validate-openai-request';

/** A 1×1 PNG, and a one-line PDF, as base64. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK';

const withAttachments = (model: string): ModelRequest => ({
  model,
  messages: [
    {
      role: 'user',
      content: 'What does the receipt say, and does the invoice match it?',
      attachments: [
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/receipt.jpg' },
        { type: 'file', mediaType: 'application/pdf', data: PDF, filename: 'invoice.pdf' },
      ],
    },
  ],
});

const server = wireServerPerTest();

const userContentOf = (index: number) => {
  const body = server().requests[index]?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  return body?.messages?.find((message) => message.role === 'user')?.content;
};

describe('images and files in a user message', () => {
  it('Anthropic: image blocks (base64 and URL), a document block, then the text', async () => {
    server().enqueue(jsonReply(anthropicTextAnswer));
    await anthropic({ baseURL: server().url, apiKey: 'test-key' }).generate(withAttachments('claude-sonnet-4-6'), {});
    assertValidAnthropicRequest(server().requests[0]?.body);
    expect(userContentOf(0)).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/receipt.jpg' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'invoice.pdf' },
      { type: 'text', text: 'What does the receipt say, and does the invoice match it?' },
    ]);
  });

  it('OpenAI: image_url parts (a data: URL and a URL), a file part, then the text', async () => {
    server().enqueue(jsonReply(openAITextAnswer));
    await openai({ baseURL: `${server().url}/v1`, apiKey: 'test-key' }).generate(withAttachments('gpt-4o'), {});
    assertValidOpenAIRequest(server().requests[0]?.body);
    expect(userContentOf(0)).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'image_url', image_url: { url: 'https://example.com/receipt.jpg' } },
      { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'invoice.pdf' } },
      { type: 'text', text: 'What does the receipt say, and does the invoice match it?' },
    ]);
  });

  it('what a vendor cannot take is a bad-request naming it, and nothing is sent', async () => {
    const tiff: ModelRequest = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Read it.', attachments: [{ type: 'image', mediaType: 'image/tiff', data: 'AAAA' }] }] };
    const byUrl: ModelRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Read it.', attachments: [{ type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' }] }] };
    const anthropicError = await anthropic({ baseURL: server().url, apiKey: 'test-key' }).generate(tiff, {}).catch((thrown: unknown) => thrown);
    const openAIError = await openai({ baseURL: `${server().url}/v1`, apiKey: 'test-key' }).generate(byUrl, {}).catch((thrown: unknown) => thrown);
    expect(anthropicError).toBeInstanceOf(ProviderError);
    expect(anthropicError).toMatchObject({ errorKind: 'bad-request', message: expect.stringContaining('"image/tiff"') });
    expect(openAIError).toMatchObject({ errorKind: 'bad-request', message: expect.stringContaining('cannot take a file by URL') });
    expect(server().requests).toHaveLength(0);
  });

  it('Anthropic: a plain-text file is sent as a text document', async () => {
    server().enqueue(jsonReply(anthropicTextAnswer));
    const notes = btoa('Refund approved for A-1182.');
    await anthropic({ baseURL: server().url, apiKey: 'test-key' }).generate({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Summarise.', attachments: [{ type: 'file', mediaType: 'text/plain', data: notes, filename: 'notes.txt' }] }] }, {});
    expect(userContentOf(0)).toEqual([
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Refund approved for A-1182.' }, title: 'notes.txt' },
      { type: 'text', text: 'Summarise.' },
    ]);
  });
});
