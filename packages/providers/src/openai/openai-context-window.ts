/** Context windows of OpenAI's models, in tokens, first match wins (a fine-tuned `ft:<base>:…` model reads as its base). */
const WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/^gpt-4\.1(?:$|-)/, 1_047_576],
  [/^gpt-(?:[5-9]|\d{2,})(?:\.\d+)?(?:$|-)/, 400_000],
  [/^(?:gpt-4o|chatgpt-4o|gpt-4-turbo|gpt-4-\d{4}-preview|gpt-4\.5)(?:$|-)/, 128_000],
  [/^o1-(?:mini|preview)(?:$|-)/, 128_000],
  [/^o[1-9](?:$|-)/, 200_000],
  [/^gpt-4-32k(?:$|-)/, 32_768],
  [/^gpt-4(?:$|-\d{4}$)/, 8_192],
  [/^gpt-3\.5-turbo-instruct(?:$|-)/, 4_096],
  [/^gpt-3\.5-turbo(?:$|-)/, 16_385],
];

/**
 * The context window of an OpenAI model, in tokens, from OpenAI's model pages (gpt-4.1 1,047,576;
 * gpt-5 400,000; gpt-4o 128,000; the o-series 200,000; …). `undefined` for a model the table does
 * not know, as every model of an OpenAI-compatible server: declare it with
 * `openai({ capabilities: { contextWindow } })`.
 */
export function openAIContextWindow(modelId: string): number | undefined {
  const base = modelId.startsWith('ft:') ? (modelId.slice(3).split(':')[0] ?? '') : modelId;
  return WINDOWS.find(([pattern]) => pattern.test(base))?.[1];
}
