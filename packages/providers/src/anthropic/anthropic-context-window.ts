/**
 * The context window of Anthropic's models, in tokens, by model id: every Claude model
 * (`claude-…`, dated or `-latest`) has 200,000 by default (the larger windows some models offer
 * are a beta turned on per request, not the default). `undefined` for an id the table does not
 * know (a proxy's alias): declare it with `anthropic({ capabilities: { contextWindow } })`.
 */
export function anthropicContextWindow(modelId: string): number | undefined {
  return modelId.startsWith('claude-') ? 200_000 : undefined;
}
