import type { ModelCapabilities } from '@keel/provider';

const NOTHING: ModelCapabilities = Object.freeze({});
const GEMINI: ModelCapabilities = Object.freeze({ nativeOutput: true, strictTools: true });

/**
 * What the adapter knows a provider package does with the spec's structured-output fields, by the
 * model's provider id. Only what the provider package's own code shows is declared:
 * - `google.generative-ai` and `google.vertex.*` (`@ai-sdk/google`, `@ai-sdk/google-vertex`):
 *   `responseFormat` with a schema becomes Gemini's `responseSchema` (constrained decoding), and a
 *   `strict` function tool turns on function calling mode `VALIDATED` (arguments constrained to
 *   the declaration): native output and strict tools. The package itself rewrites the schema to the
 *   OpenAPI subset Gemini takes, which the adapter mirrors in `lowerSchema`; Keel validates the
 *   full schema.
 * - Anything else: nothing declared. Anthropic's package decides per model whether it decodes
 *   natively or through a forced tool, OpenAI's by a provider option: pass `capabilities` to
 *   {@link fromAISDK} when you know your model's.
 */
export function knownCapabilities(provider: string): ModelCapabilities {
  if (isGemini(provider)) return GEMINI;
  return NOTHING;
}

/** True for Gemini's provider packages (`google.generative-ai`, `google.vertex.*`). */
export function isGemini(provider: string): boolean {
  return provider === 'google.generative-ai' || provider.startsWith('google.vertex');
}

/**
 * Whether a Gemini model takes a JSON response format in the same request as function
 * declarations: Gemini 3 and later do; earlier ones answer 400 ("Function calling with a response
 * mime type: 'application/json' is unsupported"). An id the adapter cannot read is taken as an
 * earlier one.
 */
export function geminiTakesJsonWithTools(modelId: string): boolean {
  const match = /gemini-(\d+)/.exec(modelId);
  return match !== null && Number(match[1]) >= 3;
}
