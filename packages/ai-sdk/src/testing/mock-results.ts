import type { LanguageModelV3Content, LanguageModelV3FinishReason, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';

/** Spec usage: `input` in total, of which `cacheRead` read from the cache. */
export function specUsage(input: number, output: number, cacheRead = 0, cacheWrite?: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input - cacheRead - (cacheWrite ?? 0), cacheRead, cacheWrite },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

const finish = (unified: LanguageModelV3FinishReason['unified'], raw: string = unified): LanguageModelV3FinishReason => ({ unified, raw });

/** A generate result of text. */
export function textResult(text: string, usage: LanguageModelV3Usage = specUsage(100, 20)): LanguageModelV3GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: finish('stop'), usage, warnings: [], response: { id: 'resp-1', modelId: 'mock-model-1' } };
}

/** A generate result asking for one tool call, its input given as JSON text. */
export function toolCallResult(name: string, input: string, id = 'call-1', extra: Partial<Extract<LanguageModelV3Content, { type: 'tool-call' }>> = {}): LanguageModelV3GenerateResult {
  return { content: [{ type: 'tool-call', toolCallId: id, toolName: name, input, ...extra }], finishReason: finish('tool-calls'), usage: specUsage(100, 10), warnings: [] };
}

/** The stream parts of a text answer, in pieces. */
export function textStreamParts(pieces: readonly string[], usage: LanguageModelV3Usage = specUsage(100, 20)): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp-s', modelId: 'mock-model-1' },
    { type: 'text-start', id: 't1' },
    ...pieces.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: finish('stop'), usage },
  ];
}
