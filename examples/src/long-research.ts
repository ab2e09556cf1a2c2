import { pathToFileURL } from 'node:url';
import { Type } from '@sinclair/typebox';
import { Agent, type ModelTarget, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * A long research loop that stays inside the model's context window: the agent reads one archive
 * page after another (about 2,000 tokens each) and answers at the end. Planned for a 32,000-token
 * window, the run compacts what it sends every few steps (old pages are sent as a short marker
 * with their call id and size; the latest three are kept whole) instead of overflowing, and the
 * prompt cache keeps working between compactions. What the run keeps is every page.
 *
 * Offline on a scripted model; with ANTHROPIC_API_KEY (or OPENAI_API_KEY) set, against the real model.
 */

const PAGES = 40;

/** An archive page: a few facts and filler, about 8,000 characters. */
export function archivePage(id: number): string {
  const fact = `Page ${id}: incident ${1000 + id} was resolved in ${(id % 7) + 1} days by team ${['red', 'blue', 'green'][id % 3]}.`;
  return `${fact}\n${'Log lines: request accepted, cache warmed, retry scheduled, handler finished. '.repeat(100)}`;
}

const readPage = tool({
  name: 'read_page',
  description: `Reads one page of the incident archive (pages 1 to ${PAGES}).`,
  input: Type.Object({ page: Type.Integer({ minimum: 1, maximum: PAGES }) }),
  execute: ({ page }) => archivePage(page),
});

/** Prices in dollars per million tokens, for the cost line (the Anthropic model's, for both runs). */
const PRICE = { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 };

/** The scripted model of the offline run: reads every page in turn, then answers from what it read. */
export function offlineTarget(): ModelTarget {
  const provider = scriptedModel((request) => {
    const read = request.messages.filter((message) => message.role === 'tool').length;
    if (read < PAGES) return { toolCalls: [{ name: 'read_page', arguments: { page: read + 1 } }] };
    return `I read all ${PAGES} pages: incidents 1001 to ${1000 + PAGES}; team red, blue and green each resolved a third of them.`;
  });
  return { provider, model: 'scripted-research' };
}

/** The research run: its answer, its compactions and what it sent. */
export async function runLongResearch(target: ModelTarget = offlineTarget(), log: (line: string) => void = console.log) {
  const compactions: { tier: string; before: number; after: number }[] = [];
  const agent = Agent.create({ ...target, maxSteps: PAGES + 5, pricing: { [target.model]: PRICE } })
    .system(`You summarise an incident archive. Read pages 1 to ${PAGES} with read_page, one call per page, in order, then answer in two sentences.`)
    .tool(readPage)
    // Plan for a 32k window, whatever the model's own: compaction is visible within a short run.
    .context({ contextWindow: 32_000 })
    .on('context.compacted', (event) => {
      compactions.push({ tier: event.tier, before: event.tokensBefore, after: event.tokensAfter });
      log(`step ${event.step}: compacted (${event.tiers}) ${event.tokensBefore} → ${event.tokensAfter} estimated tokens, ${event.clearedResults} results cleared so far`);
    })
    .build();
  const result = await agent.run('What does the incident archive say?');
  const { inputTokens, cacheReadTokens, outputTokens, costUsd, modelCalls } = result.usage;
  log(`answer: ${result.text}`);
  log(`${result.toolCalls.length} pages read, ${modelCalls} model calls, ${compactions.length} compactions`);
  log(`input tokens ${inputTokens} (+ ${cacheReadTokens} read from the cache), output tokens ${outputTokens}, $${(costUsd ?? 0).toFixed(4)}`);
  return { text: result.text, pagesRead: result.toolCalls.length, compactions, keptPages: result.messages.filter((message) => message.role === 'tool').length };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runLongResearch(providerFromEnv() ?? offlineTarget());
}
