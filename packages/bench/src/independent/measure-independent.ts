import { toValidator } from '@keel/reliability';
import { buildIndependentCorpus, INDEPENDENT_CLASSES, type IndependentItem } from './independent-corpus';
import { independentLabels, type IndependentOutcome, type IndependentStrategy, runIndependent } from './independent-strategies';
import { MeaningModel } from './meaning-model';
import { Order } from './order-schema';

/** Totals of one strategy over a set of items. */
export interface IndependentStats {
  readonly items: number;
  readonly recovered: number;
  readonly silentlyWrong: number;
  readonly calls: number;
  readonly promptTokens: number;
  /** Model calls per recovered output (every call counted, failed items included). */
  readonly callsPerRecovered: number;
  /** Prompt tokens per recovered output. */
  readonly tokensPerRecovered: number;
}

export interface IndependentResult {
  readonly seed: number;
  readonly size: number;
  readonly overall: Readonly<Record<IndependentStrategy, IndependentStats>>;
  readonly callsRatio: number;
  readonly tokensRatio: number;
  readonly targets: readonly { readonly name: string; readonly figure: string; readonly met: boolean }[];
  readonly markdown: string;
}

const STRATEGIES: readonly IndependentStrategy[] = ['keel', 'raw-latest', 'raw-accumulating', 'keel-no-local', 'blind'];

function stats(outcomes: readonly IndependentOutcome[]): IndependentStats {
  const sum = (pick: (outcome: IndependentOutcome) => number) => outcomes.reduce((total, outcome) => total + pick(outcome), 0);
  const recovered = sum((outcome) => (outcome.recovered ? 1 : 0));
  const calls = sum((outcome) => outcome.calls);
  const promptTokens = sum((outcome) => outcome.promptTokens);
  return {
    items: outcomes.length,
    recovered,
    silentlyWrong: sum((outcome) => (outcome.silentlyWrong ? 1 : 0)),
    calls,
    promptTokens,
    callsPerRecovered: recovered ? calls / recovered : Number.POSITIVE_INFINITY,
    tokensPerRecovered: recovered ? promptTokens / recovered : Number.POSITIVE_INFINITY,
  };
}

/** The corpus is what it claims: every source is valid, every first reply is not. */
function checkCorpus(corpus: readonly IndependentItem[]): void {
  const validator = toValidator(Order);
  for (const item of corpus) {
    const checked = validator.validate(item.source);
    if (checked instanceof Promise || !checked.ok) throw new Error(`independent item ${item.id}: the source is not valid`);
    const first = new MeaningModel(item).answer(undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(first);
    } catch {
      continue;
    }
    const again = validator.validate(parsed);
    if (!(again instanceof Promise) && again.ok) throw new Error(`independent item ${item.id}: the first reply is valid`);
  }
}

const pct = (part: number, whole: number) => `${whole ? ((100 * part) / whole).toFixed(0) : '0'}%`;
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const row = (label: string, value: IndependentStats) =>
  `| ${label} | ${pct(value.recovered, value.items)} | ${value.silentlyWrong} | ${fixed(value.callsPerRecovered, 2)} | ${fixed(value.tokensPerRecovered, 0)} |`;

/**
 * Recovery on an independent corpus (its own schema, defect classes and generator) answered by a
 * model that reads the meaning of feedback in any format, under five strategies with the same
 * budget of 3 calls per output.
 */
export async function measureIndependent(options: { seed?: number; perClass?: number; several?: number } = {}): Promise<IndependentResult> {
  const seed = options.seed ?? 20_261_123;
  const corpus = buildIndependentCorpus({ ...options, seed });
  checkCorpus(corpus);
  const outcomes = new Map<IndependentStrategy, IndependentOutcome[]>(STRATEGIES.map((strategy) => [strategy, []]));
  const byItem = new Map<string, Map<IndependentStrategy, IndependentOutcome>>();
  for (const item of corpus) {
    const mine = new Map<IndependentStrategy, IndependentOutcome>();
    for (const strategy of STRATEGIES) {
      const outcome = await runIndependent(strategy, item);
      outcomes.get(strategy)?.push(outcome);
      mine.set(strategy, outcome);
    }
    byItem.set(item.id, mine);
  }
  const overall = Object.fromEntries(STRATEGIES.map((strategy) => [strategy, stats(outcomes.get(strategy) ?? [])])) as Record<IndependentStrategy, IndependentStats>;
  const keel = overall.keel;
  const fair = overall['raw-latest'];
  const callsRatio = keel.callsPerRecovered / fair.callsPerRecovered;
  const tokensRatio = keel.tokensPerRecovered / fair.tokensPerRecovered;
  const targets = [
    { name: 'Keel default recovers 100% of the independent corpus', figure: pct(keel.recovered, keel.items), met: keel.recovered === keel.items },
    { name: 'no strategy returns a silently wrong value', figure: STRATEGIES.map((strategy) => overall[strategy].silentlyWrong).join(' / '), met: STRATEGIES.every((strategy) => overall[strategy].silentlyWrong === 0) },
    { name: 'Keel calls per recovered output ≤ 0.7x the fair baseline', figure: `${callsRatio.toFixed(2)}x`, met: callsRatio <= 0.7 },
    { name: 'Keel prompt tokens per recovered output ≤ 0.7x the fair baseline', figure: `${tokensRatio.toFixed(2)}x`, met: tokensRatio <= 0.7 },
  ];

  const groups = [...INDEPENDENT_CLASSES, 'several' as const];
  const classStats = (group: (typeof groups)[number], strategy: IndependentStrategy) =>
    stats(corpus.filter((item) => item.group === group).map((item) => byItem.get(item.id)?.get(strategy) as IndependentOutcome));
  // Classes where Keel needs as many calls as the fair baseline: nothing local can fix them.
  const modelBound = groups.filter((group) => group !== 'several' && classStats(group, 'keel').callsPerRecovered >= classStats(group, 'raw-latest').callsPerRecovered);
  const localShare = corpus.filter((item) => item.group !== 'several' && !modelBound.includes(item.group as never)).length / corpus.length;
  const limits = `${modelBound.length} of the ${INDEPENDENT_CLASSES.length} classes (${modelBound.join(', ')}) need a re-ask under every strategy that recovers them: the defect cannot be fixed without guessing, so Keel needs as many calls as the baseline there and about as many prompt tokens (see the table: fewer only where one grouped line replaces an error object per item, a few percent more where the feedback adds the expected shape). Keel's call saving comes from the items a lossless local repair, a coercion or candidate selection fixes (${(100 * localShare).toFixed(0)}% of this corpus), so the calls ratio depends on the mix of defects: the more of a corpus needs the model, the closer the ratio is to 1.`;
  const classRows = groups.map((group) => {
    const items = corpus.filter((item) => item.group === group);
    const cells = STRATEGIES.map((strategy) => {
      const value = stats(items.map((item) => byItem.get(item.id)?.get(strategy) as IndependentOutcome));
      return `${pct(value.recovered, value.items)} · ${value.silentlyWrong} · ${fixed(value.callsPerRecovered, 2)} · ${fixed(value.tokensPerRecovered, 0)}`;
    });
    return `| ${group} (${items.length}) | ${cells.join(' | ')} |`;
  });

  const markdown = `## Recovery on an independent corpus

A second, independent corpus (seed ${seed}): **${corpus.length}** replies for one nested order schema
(customer, status enum, boolean, nullable coupon, items with integer, number, enum and array
fields), ${options.perClass ?? 16} per defect class and ${options.several ?? 24} with a text defect and a value defect together.
Its generator, schema and defect classes share nothing with the corpus above. The model reads
feedback for its *meaning*, in any format: it fixes a value defect when one statement of the
feedback (a line, or one element of a JSON error list) names the defect's path — JSON Pointer,
\`a[0].b\`, \`a.0.b\` or \`a[*].b\` — together with the constraint expected there (the type name,
an allowed value, "required", "additional"/"unknown"); it resends one complete bare JSON value
when the feedback says the reply did not parse, was truncated or held several values. Every
strategy has 3 model calls per output. The fair baseline sends \`JSON.parse\`'s message or ajv's
\`errors\` as JSON with the latest failed output only (as Keel does); the accumulating one keeps
every failed output. *Silently wrong*: a value returned with no error that is not the one the
model meant.

| strategy | recovered | silently wrong | model calls per recovered output | prompt tokens per recovered output |
| --- | --- | --- | --- | --- |
${STRATEGIES.map((strategy) => row(independentLabels[strategy], overall[strategy])).join('\n')}

Keel default / fair baseline: **${callsRatio.toFixed(2)}x** the calls and **${tokensRatio.toFixed(2)}x** the prompt tokens per recovered output
(targets: at most 0.7x each — ${callsRatio <= 0.7 ? 'met' : '**not met**'} for calls, ${tokensRatio <= 0.7 ? 'met' : '**not met**'} for tokens). ${limits}

By class — cells: recovered · silently wrong · calls per recovered output · prompt tokens per recovered output:

| class | ${STRATEGIES.map((strategy) => independentLabels[strategy]).join(' | ')} |
| --- | ${STRATEGIES.map(() => '---').join(' | ')} |
${classRows.join('\n')}
`;
  return { seed, size: corpus.length, overall, callsRatio, tokensRatio, targets, markdown };
}
