import type { ModelCapabilities } from '@keel/provider';

/**
 * Models with `response_format: { type: 'json_schema', strict: true }` (Structured Outputs,
 * OpenAI docs): gpt-4o-mini, gpt-4o from the 2024-08-06 snapshot on (the `gpt-4o` alias points
 * there), gpt-4.1, gpt-4.5, gpt-5 and later, and the reasoning models o1 (not o1-mini or
 * o1-preview), o3, o3-mini, o4-mini and later.
 */
const nativeOutputModels = /^(?:gpt-4o-mini|gpt-4o(?!-2024-05-13)|gpt-4\.1|gpt-4\.5|gpt-(?:[5-9]|\d{2,})(?:\.\d+)?|o1(?!-mini|-preview)|o[3-9])(?:$|-)/;

/**
 * Models with strict function calling (`function.strict: true`), documented for every model with
 * function calling from gpt-4-0613 and gpt-3.5-turbo-0613 on: the native-output models above,
 * gpt-4o-2024-05-13, gpt-4-turbo, and gpt-4 and gpt-3.5-turbo except their first snapshots (0314, 0301) and the
 * instruct model, which have no tools.
 */
const strictToolModels = /^(?:gpt-4o|gpt-4-turbo|gpt-4(?!-0314|-32k-0314)(?:$|-\d{4}|-32k)|gpt-3\.5-turbo(?!-0301|-instruct))(?:$|-)/;

/** The base model of a fine-tune (`ft:gpt-4o-2024-08-06:org::id`), or the id itself. */
function baseModelOf(modelId: string): string {
  return modelId.startsWith('ft:') ? (modelId.slice(3).split(':')[0] ?? '') : modelId;
}

/**
 * What the Chat Completions API supports for a model id: `nativeOutput` and `strictTools` for the
 * OpenAI models that have Structured Outputs (gpt-4o and later, gpt-4.1, gpt-5, the o-series),
 * `strictTools` alone for older function-calling models. Any other id, such as a model on an
 * OpenAI-compatible server (Ollama, vLLM, llama.cpp), gets neither: declare what the server
 * supports with `openai({ capabilities: { nativeOutput: true, strictTools: true } })`.
 */
export function openAICapabilities(modelId: string): ModelCapabilities {
  const base = baseModelOf(modelId);
  if (nativeOutputModels.test(base)) return { nativeOutput: true, strictTools: true };
  if (strictToolModels.test(base)) return { strictTools: true };
  return {};
}
