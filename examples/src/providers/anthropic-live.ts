/**
 * Calls the live Anthropic API through the Keel adapter: once whole, once streamed, printing the
 * text, the finish reason and the token usage (cache reads included). Needs ANTHROPIC_API_KEY;
 * KEEL_ANTHROPIC_MODEL picks the model.
 *
 *   pnpm --filter @keel/examples exec tsx --conditions=@keel/source src/providers/anthropic-live.ts
 */
import { pathToFileURL } from 'node:url';
import type { ModelRequest } from '@keel/core';
import type { TokenUsage } from '@keel/provider';
import { anthropic, ProviderError } from '@keel/providers';

function describeUsage(usage: TokenUsage): string {
  return `${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.cacheReadTokens} read from cache, ${usage.cacheWriteTokens} written to cache`;
}

/** Runs the example; returns without calling anything when ANTHROPIC_API_KEY is not set. */
export async function runAnthropicLive(environment: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  const apiKey = environment['ANTHROPIC_API_KEY'];
  if (apiKey === undefined || apiKey === '') {
    console.log('Set ANTHROPIC_API_KEY to run this example.');
    return;
  }
  const provider = anthropic({ apiKey, cache: true });
  const request: ModelRequest = {
    model: environment['KEEL_ANTHROPIC_MODEL'] ?? 'claude-sonnet-4-6',
    system: 'You are a concise assistant. Answer in one sentence.',
    messages: [{ role: 'user', content: 'Why does a retry with ephemeral feedback stay cheap when the prompt is cached?' }],
    maxTokens: 200,
  };

  try {
    const response = await provider.generate(request, { signal: AbortSignal.timeout(60_000) });
    console.log(`generate → ${response.text}`);
    console.log(`  finish: ${response.finishReason}; usage: ${describeUsage(response.usage)}`);

    process.stdout.write('stream   → ');
    for await (const part of provider.stream?.(request, { signal: AbortSignal.timeout(60_000) }) ?? []) {
      if (part.type === 'text-delta') process.stdout.write(part.text);
      if (part.type === 'finish') console.log(`\n  finish: ${part.response.finishReason}; usage: ${describeUsage(part.response.usage)}`);
    }
  } catch (error) {
    if (!ProviderError.isInstance(error)) throw error;
    // The adapter never retries: the kind says whether trying again could help.
    console.error(`Anthropic call failed (${error.errorKind}${error.retryable ? ', retryable' : ''}): ${error.message}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runAnthropicLive();
