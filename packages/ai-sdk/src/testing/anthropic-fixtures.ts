/** Messages API bodies as the service sends them. */

export function anthropicUsage(input: number, output: number, cacheRead = 0, cacheWrite = 0) {
  return { input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheWrite };
}

export function anthropicMessage(content: readonly unknown[], options: { stopReason?: string; usage?: unknown } = {}) {
  return { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: options.stopReason ?? 'end_turn', stop_sequence: null, usage: options.usage ?? anthropicUsage(50, 10) };
}

export const anthropicText = (text: string, usage?: unknown) => anthropicMessage([{ type: 'text', text }], usage === undefined ? {} : { usage });
export const anthropicToolUse = (name: string, input: unknown, id = 'toolu_01') => anthropicMessage([{ type: 'tool_use', id, name, input }], { stopReason: 'tool_use' });
export const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message } });

/** A streamed text answer, event by event. */
export function anthropicTextEvents(pieces: readonly string[], usage = anthropicUsage(50, 10)) {
  return [
    { type: 'message_start', message: { ...anthropicMessage([]), stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ...pieces.map((text) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } },
    { type: 'message_stop' },
  ];
}
