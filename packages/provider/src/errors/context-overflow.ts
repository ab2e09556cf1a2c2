/**
 * What vendors answer when a request does not fit the model's context window, one table for every
 * adapter: Anthropic's `prompt is too long: 208310 tokens > 200000 maximum` and `input length and
 * max_tokens exceed context limit`, OpenAI's `context_length_exceeded` code (`This model's maximum
 * context length is 128000 tokens…`), Gemini's `The input token count (…) exceeds the maximum
 * number of tokens allowed (…)`.
 */
const CONTEXT_OVERFLOW = [
  /prompt is too long/i,
  /exceeds? (?:the )?context limit/i,
  /\bcontext_length_exceeded\b/,
  /maximum context length/i,
  /input token count.*exceeds the maximum number of tokens/i,
  /exceeds the (?:model's )?context window/i,
];

/** Stop reasons that mean the model stopped at its context window, not at its output limit (Anthropic's). */
const CONTEXT_WINDOW_STOPS = new Set(['model_context_window_exceeded']);

/**
 * True when a refused request's code or message (read from a 400 or 413, never a rate limit) says
 * the request does not fit the model's context window: the error kind `context-overflow`.
 */
export function isContextOverflow(...texts: readonly unknown[]): boolean {
  return texts.some((text) => typeof text === 'string' && CONTEXT_OVERFLOW.some((pattern) => pattern.test(text)));
}

/** True for a stop reason that says the model ran out of context window mid-answer. */
export function isContextWindowStop(stopReason: unknown): boolean {
  return typeof stopReason === 'string' && CONTEXT_WINDOW_STOPS.has(stopReason);
}
