import type { ModelTarget } from '@keel/core';
import { anthropic } from '@keel/providers/anthropic';
import { openai } from '@keel/providers/openai';

/** Environment variables read by {@link providerFromEnv}. */
type Environment = Readonly<Record<string, string | undefined>>;

function setting(environment: Environment, name: string): string | undefined {
  const value = environment[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Picks a live model from the environment, for the demos:
 * - `ANTHROPIC_API_KEY` set → the Anthropic adapter (prompt caching on), model from
 *   `KEEL_ANTHROPIC_MODEL` (default `claude-sonnet-4-6`);
 * - else `OPENAI_API_KEY` or `OPENAI_BASE_URL` set → the OpenAI adapter (which also serves local
 *   OpenAI-compatible servers), model from `KEEL_OPENAI_MODEL` (default `gpt-4o-mini`);
 * - else `undefined`: run offline on the scripted model.
 */
export function providerFromEnv(environment: Environment = process.env): ModelTarget | undefined {
  const anthropicKey = setting(environment, 'ANTHROPIC_API_KEY');
  if (anthropicKey !== undefined) {
    return {
      provider: anthropic({ apiKey: anthropicKey, cache: true }),
      model: setting(environment, 'KEEL_ANTHROPIC_MODEL') ?? 'claude-sonnet-4-6',
    };
  }
  const openAIKey = setting(environment, 'OPENAI_API_KEY');
  const openAIBaseURL = setting(environment, 'OPENAI_BASE_URL');
  if (openAIKey !== undefined || openAIBaseURL !== undefined) {
    return {
      provider: openai({
        ...(openAIKey === undefined ? {} : { apiKey: openAIKey }),
        ...(openAIBaseURL === undefined ? {} : { baseURL: openAIBaseURL }),
      }),
      model: setting(environment, 'KEEL_OPENAI_MODEL') ?? 'gpt-4o-mini',
    };
  }
  return undefined;
}
