/**
 * Gemini API (`generateContent`, `streamGenerateContent?alt=sse`) bodies as the service sends them.
 */

/** `usageMetadata` of a reply: `prompt` tokens in all, of which `cached` read from the context cache. */
export function geminiUsage(prompt: number, output: number, cached?: number) {
  return { promptTokenCount: prompt, candidatesTokenCount: output, totalTokenCount: prompt + output, ...(cached === undefined ? {} : { cachedContentTokenCount: cached }), promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }] };
}

/** A `generateContent` reply of one candidate with these parts. */
export function geminiReply(parts: readonly unknown[], options: { finishReason?: string; usage?: unknown } = {}) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: options.finishReason ?? 'STOP', index: 0 }],
    usageMetadata: options.usage ?? geminiUsage(120, 14),
    modelVersion: 'gemini-2.5-flash',
    responseId: 'gemini-resp-1',
  };
}

/** A text reply. */
export const geminiText = (text: string, usage?: unknown) => geminiReply([{ text }], usage === undefined ? {} : { usage });

/** A function call reply (Gemini gives arguments as an object; there are no call ids on the wire). */
export const geminiFunctionCall = (name: string, args: unknown, extra: Record<string, unknown> = {}) => geminiReply([{ functionCall: { name, args }, ...extra }]);

/** A Google RPC error body. */
export function geminiError(code: number, status: string, message: string, details?: readonly unknown[]) {
  return { error: { code, message, status, ...(details === undefined ? {} : { details }) } };
}

/** A streamed text reply: one chunk per piece, the finish reason and usage on the last. */
export function geminiTextChunks(pieces: readonly string[], usage: unknown = geminiUsage(120, 14)) {
  return pieces.map((text, index) => ({
    candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(index === pieces.length - 1 ? { finishReason: 'STOP' } : {}) }],
    ...(index === pieces.length - 1 ? { usageMetadata: usage } : {}),
    modelVersion: 'gemini-2.5-flash',
    responseId: 'gemini-stream-1',
  }));
}
