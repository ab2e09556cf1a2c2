import { describe, expect, it } from 'vitest';
import { anthropicRequestIssues } from '../testing/validate-anthropic-request';
import { mapAnthropicRequest } from './map-request';

const settings = { model: 'claude-sonnet-4-6', maxTokens: 4096, cache: true };

describe('continuing a cut answer on the Messages API', () => {
  it('sends the cut output as a trailing assistant turn (a prefill), never as a cache breakpoint', () => {
    const body = mapAnthropicRequest({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Extract the order' }], continueFrom: '{"items": [{"sku": "A-1",' }, settings);
    expect(anthropicRequestIssues(body)).toEqual([]);
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(body.messages[1]?.content).toEqual([{ type: 'text', text: '{"items": [{"sku": "A-1",' }]);
    // The breakpoint stays on the kept context: the prefill changes on every continuation.
    expect(JSON.stringify(body.messages[0])).toContain('cache_control');
    expect(JSON.stringify(body.messages[1])).not.toContain('cache_control');
  });

  it('never ends a prefill with whitespace (the API refuses it), and sends none for an empty one', () => {
    const body = mapAnthropicRequest({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'x' }], continueFrom: '{"a": 1,\n  ' }, settings);
    expect(body.messages[1]?.content).toEqual([{ type: 'text', text: '{"a": 1,' }]);
    const none = mapAnthropicRequest({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'x' }], continueFrom: '  ' }, settings);
    expect(none.messages).toHaveLength(1);
  });

  it('continues after ephemeral feedback: the prefill follows the feedback turn', () => {
    const body = mapAnthropicRequest(
      {
        model: 'claude-sonnet-4-6',
        messages: [
          { role: 'user', content: 'Extract' },
          { role: 'assistant', content: [{ type: 'text', text: '{"bad": 1}' }], ephemeral: true },
          { role: 'user', content: 'Fix it', ephemeral: true },
        ],
        continueFrom: '{"items": [',
      },
      settings,
    );
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });
});
