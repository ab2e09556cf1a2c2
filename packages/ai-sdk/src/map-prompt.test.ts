import type { Message } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { mapCallOptions } from './map-call-options';
import { mapPrompt } from './map-prompt';
import { toolCallOf } from './parse-tool-input';
import { ToolCallMetadata } from './tool-call-metadata';

const breakpoint = { anthropic: { cacheControl: { type: 'ephemeral' } } };
const settings = (cacheBreakpoint?: typeof breakpoint) => ({ cacheBreakpoint, toolCalls: new ToolCallMetadata() });

describe('mapPrompt', () => {
  it('images and files of a user message become file parts before its text; a url is a URL, base64 stays text', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: 'Does the invoice match the receipt?',
        attachments: [
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/invoice.pdf', filename: 'invoice.pdf' },
        ],
      },
      { role: 'user', content: ' ', attachments: [{ type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/r.jpg' }] },
    ];
    expect(mapPrompt({ messages }, settings())).toEqual([
      {
        role: 'user',
        content: [
          { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'file', mediaType: 'application/pdf', data: new URL('https://example.com/invoice.pdf'), filename: 'invoice.pdf' },
          { type: 'text', text: 'Does the invoice match the receipt?' },
        ],
      },
      { role: 'user', content: [{ type: 'file', mediaType: 'image/jpeg', data: new URL('https://example.com/r.jpg') }] },
    ]);
    expect(() => mapPrompt({ messages: [{ role: 'user', content: 'x', attachments: [{ type: 'image', mediaType: 'image/png', url: 'not a url' }] }] }, settings())).toThrow(/url is not a URL/);
  });

  it('one leading system message from the request and any system messages; roles and tool results mapped', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Add 1 and 2' },
      { role: 'assistant', content: [{ type: 'text', text: 'Adding.' }, { type: 'tool-call', id: 'c1', name: 'add', arguments: { a: 1, b: 2 } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: 'boom', isError: true }] },
    ];
    expect(mapPrompt({ system: 'You add.', messages }, settings())).toEqual([
      { role: 'system', content: 'You add.\n\nBe brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Add 1 and 2' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Adding.' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: { a: 1, b: 2 } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'error-text', value: 'boom' } }] },
    ]);
  });

  it('blank text is dropped, and messages left empty; arguments that were not JSON are sent as {}', () => {
    const messages: Message[] = [
      { role: 'user', content: '   ' },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'add', arguments: '{"a": 1,' }] },
    ];
    expect(mapPrompt({ messages }, settings())).toEqual([{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: {} }] }]);
  });

  it('the cache breakpoint goes on the system message and the last message that is not ephemeral', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Decide.' },
      { role: 'assistant', content: [{ type: 'text', text: '{"amount":"x"}' }], ephemeral: true },
      { role: 'user', content: 'amount must be a number', ephemeral: true },
    ];
    const prompt = mapPrompt({ system: 'S', messages }, settings(breakpoint));
    expect(prompt.map((message) => message.providerOptions)).toEqual([breakpoint, breakpoint, undefined, undefined]);
  });

  it('a tool call carries back the provider metadata its model gave it, and only under its own id and name', () => {
    const toolCalls = new ToolCallMetadata();
    toolCalls.remember('c1', 'add', { google: { thoughtSignature: 'sig' } });
    const messages: Message[] = [{ role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'add', arguments: {} }, { type: 'tool-call', id: 'c1', name: 'other', arguments: {} }] }];
    const [assistant] = mapPrompt({ messages }, { cacheBreakpoint: undefined, toolCalls });
    expect(assistant?.content).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: {}, providerOptions: { google: { thoughtSignature: 'sig' } } },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'other', input: {} },
    ]);
  });
});

describe('ToolCallMetadata', () => {
  it('is bounded: the least recently remembered calls are dropped first', () => {
    const toolCalls = new ToolCallMetadata(2);
    toolCalls.remember('a', 't', { p: { n: 1 } });
    toolCalls.remember('b', 't', { p: { n: 2 } });
    toolCalls.remember('c', 't', { p: { n: 3 } });
    expect([toolCalls.recall('a', 't'), toolCalls.recall('c', 't'), toolCalls.size]).toEqual([undefined, { p: { n: 3 } }, 2]);
    toolCalls.remember('d', 't', {});
    expect(toolCalls.size).toBe(2);
  });
});

describe('toolCallOf', () => {
  it('keeps the raw text exactly, so core can refuse duplicate keys and unsafe numbers', () => {
    expect(toolCallOf('c', 'pay', '{"amount": 1, "amount": 1000000}')).toEqual({ type: 'tool-call', id: 'c', name: 'pay', arguments: { amount: 1000000 }, argumentsText: '{"amount": 1, "amount": 1000000}' });
    expect(toolCallOf('c', 'pay', '{"id": 12345678901234567890}').argumentsText).toBe('{"id": 12345678901234567890}');
    expect(toolCallOf('c', 'pay', '{"a":')).toEqual({ type: 'tool-call', id: 'c', name: 'pay', arguments: '{"a":', argumentsText: '{"a":' });
    expect(toolCallOf('c', 'ping', '  ')).toEqual({ type: 'tool-call', id: 'c', name: 'ping', arguments: {} });
    expect(toolCallOf('c', 'ping', { already: 'parsed' })).toEqual({ type: 'tool-call', id: 'c', name: 'ping', arguments: { already: 'parsed' } });
  });
});

describe('mapCallOptions', () => {
  it('tools, strict, a forced tool, output tokens, stop sequences, native JSON output and the signal', () => {
    const controller = new AbortController();
    const options = mapCallOptions(
      {
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ name: 'add', description: '', inputSchema: { type: 'object' }, strict: true }],
        toolChoice: { type: 'tool', name: 'add' },
        maxTokens: 64,
        temperature: 0,
        stop: ['END'],
        responseFormat: { type: 'json', schema: { type: 'object' }, name: 'answer', strict: true },
      },
      { cacheBreakpoint: undefined, cacheTools: false, toolCalls: new ToolCallMetadata(), providerOptions: { google: { thinkingConfig: { thinkingBudget: 0 } } } },
      controller.signal,
    );
    expect(options).toEqual({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [{ type: 'function', name: 'add', inputSchema: { type: 'object' }, strict: true }],
      toolChoice: { type: 'tool', toolName: 'add' },
      maxOutputTokens: 64,
      temperature: 0,
      stopSequences: ['END'],
      responseFormat: { type: 'json', schema: { type: 'object' }, name: 'answer' },
      providerOptions: { google: { thinkingConfig: { thinkingBudget: 0 } } },
      abortSignal: controller.signal,
    });
  });
});
