import { Agent, tool } from '@keel/core';
import { toolPairingProblems } from '@keel/core/internal';
import { Type } from '@sinclair/typebox';
import { PRICES } from '../large-output/prices';
import { tokens } from '../recovery/strategies';
import { type CountedRequest, longRunVendor } from './long-run-vendor';

const STEPS = 100;
/** The run at scale: one user turn of this many steps under the same window. */
const LONG_STEPS = 1_000;
const WINDOW = 32_000;
/** A window no run of this bench comes near: the uncompacted run's would-be requests. */
const HUGE_WINDOW = 100_000_000;
const MODEL = 'claude-sonnet-4-5';
const SYSTEM = 'You are a research agent. Search the archive step by step with the search tool, then write your findings.';
const TASK = 'Find every incident report about refund delays in the archive and summarise what caused them.';

/** A search result page of about 2,000 tokens: rows of ids, dates, amounts and short notes. */
export function searchPage(step: number): string {
  const rows: string[] = [`Results for query ${step} (page 1 of 1):`];
  for (let row = 1; row <= 70; row++) {
    const id = step * 100 + row;
    rows.push(`#${id} | 2026-${String((row % 12) + 1).padStart(2, '0')}-${String((id % 28) + 1).padStart(2, '0')} | refund delayed ${(id % 9) + 1} days | order A-${10_000 + id} | cause: ${['bank holiday', 'manual review', 'address mismatch', 'card expired'][id % 4]}`);
  }
  return rows.join('\n');
}

/** What one run sent and spent. */
export interface LongRunFigures {
  readonly label: string;
  readonly completed: boolean;
  readonly steps: number;
  /** Step requests (summary calls apart). */
  readonly requests: number;
  /** Summary calls of compactions (their input tokens are in `sentTokens`). */
  readonly summaries: number;
  /** Mean steps between two compactions (NaN with fewer than two). */
  readonly meanStepsBetween: number;
  /** Input tokens sent in all (uncached input and cache reads), BPE-counted by the vendor. */
  readonly sentTokens: number;
  readonly cacheReadTokens: number;
  readonly largestRequest: number;
  readonly dollars: number;
  readonly refusals: number;
  readonly compactions: number;
  /** Requests where a tool call lacked its result (or a result its call), or the system prompt or the task was missing. */
  readonly brokenRequests: number;
  /** Requests (after the first) that did not extend the one before, and whether those are exactly the compaction steps. */
  readonly prefixBreaks: number;
  readonly breaksAreCompactions: boolean;
}

/** Requests (by 1-based step) whose messages do not start with the whole message list of the request before. */
function prefixBreakSteps(counted: readonly CountedRequest[]): number[] {
  const steps: number[] = [];
  for (let index = 1; index < counted.length; index++) {
    const before = (counted[index - 1] as CountedRequest).request.messages.map((message) => JSON.stringify(message));
    const now = (counted[index] as CountedRequest).request.messages.map((message) => JSON.stringify(message));
    if (!before.every((message, position) => now[position] === message)) steps.push(index + 1);
  }
  return steps;
}

/** What the simulated model writes when a compaction asks it for a summary: the searches so far and the causes, about 150 tokens. */
function summaryOf(request: Parameters<Parameters<typeof longRunVendor>[1]>[0]): string {
  const transcript = typeof request.messages[0]?.content === 'string' ? request.messages[0].content : '';
  const pages = [...transcript.matchAll(/page (\d+)/g)].map((match) => Number(match[1]));
  return `Searched the archive for refund delays, pages ${Math.min(...pages, 1)} to ${Math.max(...pages, 1)}. Causes found so far: bank holidays, manual reviews, address mismatches and expired cards; delays of 1 to 9 days on orders A-10100 and up. Next: keep searching page by page, then write the findings.`;
}

/** The scripted research run of `steps` steps in one user turn: one search a step, each returning about 2,000 tokens, then the findings. */
async function longRun(label: string, window: number, compaction: boolean, steps = STEPS): Promise<LongRunFigures> {
  const vendor = longRunVendor(window, (request) => {
    if (request.system !== SYSTEM) return [{ type: 'text', text: summaryOf(request) }];
    // The last page searched (a summary may stand in for the earlier turns): the latest call's page.
    const done = Math.max(0, ...request.messages.flatMap((message) => (message.role === 'assistant' ? message.content.flatMap((part) => (part.type === 'tool-call' ? [Number(String((part.arguments as { query?: unknown }).query).split(' ').at(-1))] : [])) : [])));
    if (done >= steps) return [{ type: 'text', text: `Findings: ${STEPS} searches; refund delays came from bank holidays, manual reviews, address mismatches and expired cards.` }];
    return [{ type: 'tool-call', id: `search_${done + 1}`, name: 'search', arguments: { query: `refund delays, page ${done + 1}` } }];
  });
  const search = tool({ name: 'search', description: 'Search the incident archive', input: Type.Object({ query: Type.String() }), execute: ({ query }) => searchPage(Number(query.split(' ').at(-1))) });
  const compactionSteps: number[] = [];
  const { inputPerMTok, outputPerMTok, cacheReadPerMTok } = PRICES[MODEL];
  const builder = Agent.create({ provider: vendor, model: MODEL, maxSteps: steps + 1, pricing: { [MODEL]: { inputPerMTok, outputPerMTok, cacheReadPerMTok } } })
    .system(SYSTEM)
    .tool(search)
    .on('context.compacted', (event) => void compactionSteps.push(event.step));
  const agent = (compaction ? builder : builder.context(false)).build();
  const result = await agent.run(TASK).then(
    (done) => ({ done, error: undefined }),
    (error: unknown) => ({ done: undefined, error }),
  );
  const counted = vendor.counted.filter(({ request }) => request.system === SYSTEM);
  const gaps = compactionSteps.slice(1).map((step, index) => step - (compactionSteps[index] as number));
  const broken = counted.filter(({ request }) => toolPairingProblems(request.messages).length > 0 || request.system !== SYSTEM || request.messages[0]?.content !== TASK).length;
  const breaks = prefixBreakSteps(counted);
  return {
    label,
    completed: result.done !== undefined,
    steps: result.done?.steps.length ?? counted.length,
    requests: counted.length,
    summaries: vendor.counted.length - counted.length,
    meanStepsBetween: gaps.length === 0 ? Number.NaN : gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length,
    sentTokens: vendor.counted.reduce((sum, entry) => sum + entry.tokens, 0),
    cacheReadTokens: vendor.counted.reduce((sum, entry) => sum + entry.cacheRead, 0),
    largestRequest: Math.max(...counted.map((entry) => entry.tokens)),
    dollars: result.done?.usage.costUsd ?? Number.NaN,
    refusals: vendor.refusals,
    compactions: compactionSteps.length,
    brokenRequests: broken,
    prefixBreaks: breaks.length,
    breaksAreCompactions: breaks.join() === compactionSteps.join(),
  };
}

/** The long-run slice: the same scripted run with compaction under a 32k window, and without it (a huge window, and 32k). */
export async function measureLongRun() {
  const pageTokens = tokens(searchPage(1));
  const compacted = await longRun(`Keel default (compaction at 0.8 of a ${WINDOW.toLocaleString('en')}-token window)`, WINDOW, true);
  const atScale = await longRun(`Keel default, ${LONG_STEPS.toLocaleString('en')} steps in one user turn, the same window`, WINDOW, true, LONG_STEPS);
  const uncompacted = await longRun('no compaction (`.context(false)`), a window too large to refuse', HUGE_WINDOW, false);
  const overflowing = await longRun(`no compaction, the same ${WINDOW.toLocaleString('en')}-token window`, WINDOW, false);
  const share = compacted.sentTokens / uncompacted.sentTokens;
  const targets = [
    { name: `100-step run under a 32k window: completes with 0 context-length refusals`, figure: `${compacted.completed ? 'completed' : 'failed'}, ${compacted.refusals} refusals`, met: compacted.completed && compacted.refusals === 0 },
    { name: 'input tokens with compaction ≤ 20% of the same run without', figure: `${(share * 100).toFixed(1)}%`, met: share <= 0.2 },
    { name: `${LONG_STEPS.toLocaleString('en')}-step run in one user turn under a 32k window: 0 refusals, at most one compaction every 5 steps on average`, figure: `${atScale.completed ? 'completed' : 'failed'}, ${atScale.refusals} refusals, ${atScale.compactions} compactions, ${atScale.meanStepsBetween.toFixed(2)} steps apart on average, largest request ${atScale.largestRequest.toLocaleString('en')} tokens`, met: atScale.completed && atScale.refusals === 0 && atScale.meanStepsBetween >= 5 },
    { name: `${LONG_STEPS.toLocaleString('en')}-step run: every request pairs calls and results, keeps the system prompt and the task; the prefix changes only at compactions`, figure: `${atScale.brokenRequests} broken requests, ${atScale.prefixBreaks} prefix changes at ${atScale.compactions} compactions`, met: atScale.brokenRequests === 0 && atScale.breaksAreCompactions },
    { name: 'every request pairs calls and results, keeps the system prompt and the task; the prefix changes only at compactions', figure: `${compacted.brokenRequests} broken requests, ${compacted.prefixBreaks} prefix changes at ${compacted.compactions} compactions`, met: compacted.brokenRequests === 0 && compacted.breaksAreCompactions },
  ];
  const row = (figures: LongRunFigures) =>
    `| ${figures.label} | ${figures.completed ? 'yes' : `no: refused at step ${figures.steps}`} | ${figures.requests} | ${figures.sentTokens.toLocaleString('en')} | ${figures.cacheReadTokens.toLocaleString('en')} | ${figures.largestRequest.toLocaleString('en')} | ${Number.isNaN(figures.dollars) ? '—' : `$${figures.dollars.toFixed(2)}`} | ${figures.compactions} | ${figures.refusals} |`;
  const markdown = `## Long runs: compaction

Measured by \`pnpm bench\` (this slice alone: \`pnpm --filter @keel/bench bench:long-run\`). A scripted
${STEPS}-step research run (\`packages/bench/src/long-run/\`): each step calls a search tool whose
page is ${pageTokens.toLocaleString('en')} tokens, then the model writes its findings. The vendor is simulated in process:
it counts every request with a real BPE tokenizer (o200k; system prompt, tool definitions and
every message), refuses one over its window as a context-length refusal, and reports usage as a
prompt cache would — the prefix shared with the previous request as cache reads, the rest as
input. Dollars at ${PRICES[MODEL].label} list prices ($${PRICES[MODEL].inputPerMTok} input, $${PRICES[MODEL].cacheReadPerMTok} cache reads, $${PRICES[MODEL].outputPerMTok} output per million tokens; cache writes not charged).
"Sent" is every input token of every request, cached or not.

| run | completed | requests | input tokens sent | of which cache reads | largest request | dollars | compactions | refusals |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${row(compacted)}
${row(atScale)}
${row(uncompacted)}
${row(overflowing)}

With compaction the run sends ${(share * 100).toFixed(1)}% of the input tokens of the same run without it, and
costs ${((compacted.dollars / uncompacted.dollars) * 100).toFixed(1)}% of its dollars. In every request of the compacted run each tool call has
its result and the system prompt and the task are there (${compacted.brokenRequests} broken of ${compacted.requests}); the prefix
changed ${compacted.prefixBreaks} times, at exactly the ${compacted.compactions} compaction steps (${compacted.breaksAreCompactions ? 'yes' : '**no**'}).
"Requests" are the steps' (and retries'); the ${compacted.summaries} summary calls of the compacted run are apart, their
input in "sent". At ${LONG_STEPS.toLocaleString('en')} steps the run compacts ${atScale.compactions} times, ${atScale.meanStepsBetween.toFixed(1)} steps apart on average
(${atScale.summaries} of them with a summary), its largest request ${atScale.largestRequest.toLocaleString('en')} tokens of the ${WINDOW.toLocaleString('en')}-token window.
`;
  return { compacted, atScale, uncompacted, overflowing, share, targets, markdown };
}
