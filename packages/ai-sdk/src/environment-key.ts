/**
 * The environment variable the AI SDK's provider packages read their key from by default, by the
 * model's provider id (`google.generative-ai` → `GOOGLE_GENERATIVE_AI_API_KEY`).
 */
const KEY_VARIABLES: readonly (readonly [prefix: string, variable: string])[] = [
  ['google.vertex', 'GOOGLE_VERTEX_API_KEY'],
  ['google', 'GOOGLE_GENERATIVE_AI_API_KEY'],
  ['anthropic', 'ANTHROPIC_API_KEY'],
  ['openai', 'OPENAI_API_KEY'],
  ['azure', 'AZURE_API_KEY'],
  ['mistral', 'MISTRAL_API_KEY'],
  ['groq', 'GROQ_API_KEY'],
  ['xai', 'XAI_API_KEY'],
  ['deepseek', 'DEEPSEEK_API_KEY'],
  ['cohere', 'COHERE_API_KEY'],
  ['gateway', 'AI_GATEWAY_API_KEY'],
];

/** The key the model's provider package reads from the environment when none is passed, if set. */
export function environmentKeyOf(provider: string): string | undefined {
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (environment === undefined) return undefined;
  for (const [prefix, variable] of KEY_VARIABLES) if (provider === prefix || provider.startsWith(`${prefix}.`)) return environment[variable];
  return undefined;
}
