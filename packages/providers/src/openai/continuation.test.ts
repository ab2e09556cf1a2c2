import { describe, expect, it } from 'vitest';
import { openAIRequestIssues } from '../testing/validate-openai-request';
import { CONTINUE_INSTRUCTION } from '@keel/provider';
import { mapOpenAIRequest } from './map-request';

describe('continuing a cut answer on Chat Completions', () => {
  it('sends the cut output as an assistant message, then the instruction to continue exactly where it stopped', () => {
    const body = mapOpenAIRequest({ model: 'gpt-4o-mini', system: 'Extract orders', messages: [{ role: 'user', content: 'Extract' }], continueFrom: '{"items": [{"sku": "A-1",' }, { model: 'gpt-4o-mini', maxTokensField: 'max_tokens' });
    expect(openAIRequestIssues(body)).toEqual([]);
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(body.messages[2]).toMatchObject({ role: 'assistant', content: '{"items": [{"sku": "A-1",' });
    expect(body.messages[3]).toEqual({ role: 'user', content: CONTINUE_INSTRUCTION });
  });

  it('sends the messages as they are without continueFrom', () => {
    const body = mapOpenAIRequest({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Extract' }] }, { model: 'gpt-4o-mini', maxTokensField: 'max_tokens' });
    expect(body.messages).toEqual([{ role: 'user', content: 'Extract' }]);
  });
});
