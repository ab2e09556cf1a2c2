import { isDeepStrictEqual } from 'node:util';
import { Agent, type Message, type ModelRequest, type ModelResponse, type OutputOptions } from '@keel/core';
import type { ModelProviderV1 } from '@keel/provider';
import { Order, orderSystem, rawOrderValidator } from '../independent/order-schema';
import { requestTokens, tokens } from '../recovery/strategies';
import { buildLargeCorpus, LARGE_CLASSES, type LargeClass, type LargeItem } from './large-corpus';
import { LargeModel } from './large-model';
import { dollars, PRICES, type PricedModel } from './prices';

/** Strategies compared on the large-output slice. */
export type LargeStrategy = 'keel' | 'keel-whole' | 'raw-latest';

export const largeLabels: Readonly<Record<LargeStrategy, string>> = {
  keel: 'Keel default (patch re-asks, continuation)',
  'keel-whole': 'Keel, whole-value re-asks, no continuation (`patch: false, continuation: false`)',
  'raw-latest': 'raw validator errors, latest failure only, full re-ask (fair baseline)',
};

const STRATEGIES: readonly LargeStrategy[] = ['keel', 'raw-latest', 'keel-whole'];
const MODEL: PricedModel = 'claude-sonnet-4-5';

/** What calls cost: of one item, or added up over some items. */
interface LargeSpend {
  readonly calls: number;
  readonly dollars: number;
  readonly outputTokens: number;
  /** Output tokens of re-asks (calls after the first that are not continuations). */
  readonly reAskOutputTokens: number;
  /** Output tokens of continuations, and of the part each cut reply was missing. */
  readonly continuationTokens: number;
  readonly missingTokens: number;
}

/** What one strategy did with one item. */
interface LargeOutcome extends LargeSpend {
  readonly recovered: boolean;
  readonly silentlyWrong: boolean;
}

/** Counts one item's calls: usage with the same prompt caching for every strategy, priced at list prices. */
class Meter {
  calls = 0;
  dollars = 0;
  outputTokens = 0;
  reAskOutputTokens = 0;
  continuationTokens = 0;
  missingTokens = 0;

  /**
   * One call. The cached prefix is the system prompt and the task (written to the cache by the
   * first call, read by every later one); everything after it is uncached input.
   */
  call(request: Pick<ModelRequest, 'system' | 'messages' | 'continueFrom'>, reply: string, kind: 'first' | 're-ask' | 'continuation'): void {
    const task = request.messages[0];
    const prefix = tokens(request.system ?? '') + (task && typeof task.content === 'string' ? tokens(task.content) : 0);
    const input = requestTokens(request) + (request.continueFrom === undefined ? 0 : tokens(request.continueFrom));
    const output = tokens(reply);
    const first = this.calls === 0;
    this.calls++;
    this.dollars += dollars({ inputTokens: input - prefix, outputTokens: output, cacheReadTokens: first ? 0 : prefix, cacheWriteTokens: first ? prefix : 0 }, MODEL);
    this.outputTokens += output;
    if (kind === 're-ask') this.reAskOutputTokens += output;
    if (kind === 'continuation') this.continuationTokens += output;
  }

  outcome(value: unknown, item: LargeItem): LargeOutcome {
    const right = value !== undefined && isDeepStrictEqual(value, item.source);
    return { ...this.totals(), recovered: right, silentlyWrong: value !== undefined && !right };
  }

  totals() {
    const { calls, dollars: spent, outputTokens, reAskOutputTokens, continuationTokens, missingTokens } = this;
    return { calls, dollars: spent, outputTokens, reAskOutputTokens, continuationTokens, missingTokens };
  }
}

function feedbackOf(messages: readonly Message[]): string | undefined {
  const last = messages[messages.length - 1];
  return messages.length > 1 && last?.role === 'user' && typeof last.content === 'string' ? last.content : undefined;
}

async function runKeel(item: LargeItem, index: number, options: OutputOptions): Promise<LargeOutcome> {
  const model = new LargeModel(item, index % 2 === 1);
  const meter = new Meter();
  let continuing: string | undefined;
  const provider: ModelProviderV1 = {
    specificationVersion: 'v1',
    name: 'simulated',
    generate: async (request): Promise<ModelResponse> => {
      const from = request.continueFrom;
      // The part a cut reply is missing, counted once per cut reply (not again for a cut continuation).
      if (from !== undefined && continuing === undefined) meter.missingTokens += tokens(JSON.stringify(JSON.parse(JSON.stringify(item.source)), null, 2)) - tokens(from);
      continuing = from;
      const reply = model.answer(request, feedbackOf(request.messages));
      meter.call(request, reply.text, from !== undefined ? 'continuation' : meter.calls === 0 ? 'first' : 're-ask');
      const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
      return { content: [{ type: 'text', text: reply.text }], text: reply.text, finishReason: reply.cut ? 'length' : 'stop', usage };
    },
  };
  const agent = Agent.create({ provider, model: MODEL, ...(item.maxTokens === undefined ? {} : { maxTokens: item.maxTokens }) })
    .system(orderSystem)
    .outputSchema(Order, options)
    .build();
  try {
    return meter.outcome(await agent.runTyped(item.prompt), item);
  } catch {
    return meter.outcome(undefined, item);
  }
}

/** The fair baseline: `JSON.parse`, ajv, the latest failed output and its raw errors, a full re-ask; 3 calls. */
function runRaw(item: LargeItem): LargeOutcome {
  const model = new LargeModel(item, false);
  const meter = new Meter();
  const validate = rawOrderValidator();
  const task: Message = { role: 'user', content: item.prompt };
  let messages: Message[] = [task];
  for (let call = 1; call <= 3; call++) {
    const request = { system: orderSystem, messages, ...(item.maxTokens === undefined ? {} : { maxTokens: item.maxTokens }) };
    const reply = model.answer(request, feedbackOf(messages));
    meter.call(request, reply.text, call === 1 ? 'first' : 're-ask');
    let feedback: string;
    try {
      const value: unknown = JSON.parse(reply.text);
      if (validate(value)) return meter.outcome(value, item);
      feedback = `Validation errors:\n${JSON.stringify(validate.errors)}\nFix the errors and reply with the corrected JSON only.`;
    } catch (error) {
      feedback = `JSON parse error: ${error instanceof Error ? error.message : String(error)}\nReply with valid JSON only.`;
    }
    messages = [task, { role: 'assistant', content: [{ type: 'text', text: reply.text }] }, { role: 'user', content: feedback }];
  }
  return meter.outcome(undefined, item);
}

function run(strategy: LargeStrategy, item: LargeItem, index: number): Promise<LargeOutcome> {
  switch (strategy) {
    case 'keel':
      return runKeel(item, index, {});
    case 'keel-whole':
      return runKeel(item, index, { patch: false, continuation: false });
    case 'raw-latest':
      return Promise.resolve(runRaw(item));
  }
}

/** Totals of one strategy over some items. */
export interface LargeStats extends LargeSpend {
  readonly items: number;
  readonly recovered: number;
  readonly silentlyWrong: number;
  readonly dollarsPerRecovered: number;
  readonly outputTokensPerRecovered: number;
}

function stats(outcomes: readonly LargeOutcome[]): LargeStats {
  const sum = (pick: (outcome: LargeOutcome) => number) => outcomes.reduce((total, outcome) => total + pick(outcome), 0);
  const recovered = sum((outcome) => (outcome.recovered ? 1 : 0));
  const spent = sum((outcome) => outcome.dollars);
  const outputTokens = sum((outcome) => outcome.outputTokens);
  return {
    items: outcomes.length,
    recovered,
    silentlyWrong: sum((outcome) => (outcome.silentlyWrong ? 1 : 0)),
    calls: sum((outcome) => outcome.calls),
    dollars: spent,
    outputTokens,
    reAskOutputTokens: sum((outcome) => outcome.reAskOutputTokens),
    continuationTokens: sum((outcome) => outcome.continuationTokens),
    missingTokens: sum((outcome) => outcome.missingTokens),
    dollarsPerRecovered: recovered ? spent / recovered : Number.POSITIVE_INFINITY,
    outputTokensPerRecovered: recovered ? outputTokens / recovered : Number.POSITIVE_INFINITY,
  };
}

/** The outcome of {@link measureLargeOutput}. */
export interface LargeOutputResult {
  readonly size: number;
  readonly targets: readonly { readonly name: string; readonly figure: string; readonly met: boolean }[];
  readonly markdown: string;
}

const pct = (part: number, whole: number) => `${whole ? ((100 * part) / whole).toFixed(0) : '0'}%`;
const usd = (value: number) => (Number.isFinite(value) ? `$${value.toFixed(4)}` : '—');
const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

/**
 * Dollars and output tokens per recovered output on the large-output slice: Keel's patch re-asks
 * and continuation against the fair baseline (a full re-ask with the raw validator errors, the
 * latest failure only) and Keel with both off, with the same prompt caching, priced at list prices.
 */
export async function measureLargeOutput(options: { seed?: number; perClass?: number } = {}): Promise<LargeOutputResult> {
  const corpus = buildLargeCorpus(options);
  const byStrategy = new Map<LargeStrategy, Map<string, LargeOutcome>>(STRATEGIES.map((strategy) => [strategy, new Map()]));
  for (const [index, item] of corpus.entries()) {
    for (const strategy of STRATEGIES) byStrategy.get(strategy)?.set(item.id, await run(strategy, item, index));
  }
  const of = (strategy: LargeStrategy, classes: readonly LargeClass[]) =>
    stats(corpus.filter((item) => classes.includes(item.largeClass)).map((item) => byStrategy.get(strategy)?.get(item.id) as LargeOutcome));
  const fieldClasses: readonly LargeClass[] = ['one-field', 'two-fields', 'three-fields'];
  const cutClasses: readonly LargeClass[] = ['cut', 'cut-and-field'];
  const keelFields = of('keel', fieldClasses);
  const rawFields = of('raw-latest', fieldClasses);
  const keelAll = of('keel', LARGE_CLASSES);
  const rawAll = of('raw-latest', LARGE_CLASSES);
  const keelSingle = of('keel', ['one-field']);
  const rawSingle = of('raw-latest', ['one-field']);
  const keelCut = of('keel', cutClasses);
  const wholeCut = of('keel-whole', cutClasses);
  const rawCut = of('raw-latest', cutClasses);
  const dollarRatio = keelFields.dollarsPerRecovered / rawFields.dollarsPerRecovered;
  const allRatio = keelAll.dollarsPerRecovered / rawAll.dollarsPerRecovered;
  const reAskRatio = keelSingle.reAskOutputTokens / rawSingle.reAskOutputTokens;
  const continuationRatio = keelCut.continuationTokens / keelCut.missingTokens;
  const silent = STRATEGIES.map((strategy) => of(strategy, LARGE_CLASSES).silentlyWrong);
  const targets = [
    { name: 'Large outputs with bad fields: Keel dollars per recovered output ≤ 0.6x the fair baseline', figure: `${dollarRatio.toFixed(2)}x`, met: dollarRatio <= 0.6 },
    { name: 'Large outputs, single-field defects: Keel re-ask output tokens ≤ 0.1x the fair baseline', figure: `${reAskRatio.toFixed(3)}x`, met: reAskRatio <= 0.1 },
    { name: 'Outputs cut at the token limit recovered (none without continuation)', figure: `${pct(keelCut.recovered, keelCut.items)} (without: ${pct(wholeCut.recovered, wholeCut.items)})`, met: keelCut.recovered === keelCut.items },
    { name: 'Continuation output tokens ≤ 1.2x the missing part', figure: `${continuationRatio.toFixed(2)}x`, met: continuationRatio <= 1.2 },
    { name: 'Large-output slice: no strategy returns a silently wrong value', figure: silent.join(' / '), met: silent.every((count) => count === 0) },
  ];
  const row = (label: string, value: LargeStats) =>
    `| ${label} | ${pct(value.recovered, value.items)} | ${value.silentlyWrong} | ${fixed(value.calls / value.items, 2)} | ${usd(value.dollarsPerRecovered)} | ${fixed(value.outputTokensPerRecovered)} | ${fixed(value.reAskOutputTokens)} |`;
  const classRows = LARGE_CLASSES.map((largeClass) => {
    const cells = STRATEGIES.map((strategy) => {
      const value = of(strategy, [largeClass]);
      return `${pct(value.recovered, value.items)} · ${usd(value.dollarsPerRecovered)} · ${fixed(value.outputTokensPerRecovered)}`;
    });
    const sizes = corpus.filter((item) => item.largeClass === largeClass).map((item) => item.outputTokens);
    return `| ${largeClass} (${sizes.length}; ${Math.min(...sizes)}–${Math.max(...sizes)} tokens) | ${cells.join(' | ')} |`;
  });
  const price = PRICES[MODEL];
  const markdown = `## Large outputs: patch re-asks, continuation and dollars

A large-output slice of the independent corpus (same order schema and model): **${corpus.length}** extractions of
1k–8k output tokens (20–150 order items, o200k tokens as the model writes them), ${options.perClass ?? 16} per class: one, two
or three bad fields (a price with its unit, a quantity in words, a missing or an extra field: none
fixable without the model), a reply cut at a token limit (45–85% of the output), and a cut reply
that also has a bad field. The model reads feedback for its meaning as above; asked for a patch it
answers with the corrected values at the listed paths (every fourth time with the full value
instead), and asked to continue it writes the rest of its output (on half the items exactly from
the cut, as an Anthropic prefill continues; on the other half starting again at the cut line, as
chat models asked to continue often do). Every reply is cut at the request's \`maxTokens\`.

Every call is priced at list prices, ${price.label}: $${price.inputPerMTok} per million input tokens, $${price.outputPerMTok} output,
$${price.cacheReadPerMTok} cache reads, $${price.cacheWritePerMTok} cache writes. Every strategy gets the same prompt caching:
the system prompt (with the schema) and the task are written to the cache by an output's first
call and read from it by every later call; the rest of each request is uncached input. The fair
baseline re-asks with the raw ajv errors (or \`JSON.parse\`'s message) and the latest failed output
only, for the whole value, in 3 calls; it has no continuation (a cut reply is re-asked, and cut again).
Measured by \`pnpm bench\`; alone, after \`pnpm build\`: \`pnpm --filter @keel/bench bench:large\`.

| strategy (whole slice) | recovered | silently wrong | calls per output | dollars per recovered output | output tokens per recovered output | re-ask output tokens (total) |
| --- | --- | --- | --- | --- | --- | --- |
${STRATEGIES.map((strategy) => row(largeLabels[strategy], of(strategy, LARGE_CLASSES))).join('\n')}

Bad fields only (the classes every strategy can recover): Keel **${usd(keelFields.dollarsPerRecovered)}** per recovered output,
the fair baseline ${usd(rawFields.dollarsPerRecovered)}: **${dollarRatio.toFixed(2)}x** (target ≤ 0.6x). Whole slice: ${allRatio.toFixed(2)}x. Re-asks'
output tokens for single-field defects: ${fixed(keelSingle.reAskOutputTokens)} against ${fixed(rawSingle.reAskOutputTokens)}, **${reAskRatio.toFixed(3)}x** (target ≤ 0.1x).
Cut replies: Keel recovers ${pct(keelCut.recovered, keelCut.items)} (with continuation off ${pct(wholeCut.recovered, wholeCut.items)}, the fair baseline
${pct(rawCut.recovered, rawCut.items)}); its continuations wrote ${fixed(keelCut.continuationTokens)} output tokens for ${fixed(keelCut.missingTokens)} missing, **${continuationRatio.toFixed(2)}x** (target ≤ 1.2x;
above 1 where the model starts again at the cut line).

By class — cells: recovered · dollars per recovered output · output tokens per recovered output:

| class | ${STRATEGIES.map((strategy) => largeLabels[strategy]).join(' | ')} |
| --- | ${STRATEGIES.map(() => '---').join(' | ')} |
${classRows.join('\n')}
`;
  return { size: corpus.length, targets, markdown };
}
