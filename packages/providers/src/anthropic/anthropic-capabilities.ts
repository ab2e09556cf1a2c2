import type { ModelCapabilities } from '@keel/provider';

/** A Claude model id: `claude-<family>-<major>[-<minor>][-<date> | @<date>]`, e.g. `claude-sonnet-4-5-20250929`. */
const claudeModelId = /^claude-([a-z]+)-(\d+)(?:-(\d{1,2}))?(?:(?:-|@)\d{8})?(?:-latest)?$/;

/** The first Claude version with structured outputs (Claude Opus 4.5, Sonnet 4.5, Haiku 4.5). */
const firstVersion = { major: 4, minor: 5 } as const;

/**
 * What Anthropic's Messages API supports for a model id. Structured outputs (JSON outputs with
 * `output_config.format`, and `strict: true` tools) are generally available for Claude Opus 4.6,
 * Sonnet 4.6, Sonnet 4.5, Opus 4.5 and Haiku 4.5 ("Structured outputs", Claude API docs), and
 * for the models after them (Opus 4.7 and later, the Claude 5 family). Earlier models (Claude 3.x,
 * Sonnet 4, Opus 4 and 4.1) and ids this function does not recognise (a proxy's alias, a preview)
 * get neither: declare them with the provider's `capabilities` option.
 */
export function anthropicCapabilities(modelId: string): ModelCapabilities {
  const match = claudeModelId.exec(modelId);
  if (match === null) return {};
  const major = Number(match[2]);
  const minor = match[3] === undefined ? 0 : Number(match[3]);
  const supported = major > firstVersion.major || (major === firstVersion.major && minor >= firstVersion.minor);
  return supported ? { nativeOutput: true, strictTools: true } : {};
}
