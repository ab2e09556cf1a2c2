import { toValidator } from '@keel/reliability';
import { buildCorpus, type CorpusItem } from './corpus';
import type { DefectClass } from './render';
import { schemas } from './schemas';
import { type ItemOutcome, peerValidator, runStrategy, type StrategyName, strategyLabels } from './strategies';

/** Aggregates of one strategy over a set of items. */
export interface RecoveryStats {
  readonly items: number;
  readonly recovered: number;
  /** 0–100. */
  readonly recoveredPct: number;
  /** Mean model calls per output. */
  readonly meanCalls: number;
  /** Mean prompt tokens per output, every request counted. */
  readonly meanPromptTokens: number;
}

/** A target check on the Keel default strategy. */
export interface RecoveryTarget {
  readonly name: string;
  readonly met: boolean;
  /** Items that miss it (ids), empty when met. */
  readonly misses: readonly string[];
}

export interface RecoveryResult {
  readonly seed: number;
  readonly corpusSize: number;
  readonly strategies: readonly StrategyName[];
  readonly overall: Readonly<Record<StrategyName, RecoveryStats>>;
  /** By defect class (`several` for items with 2+ defects), then strategy. */
  readonly byClass: ReadonlyMap<DefectClass, Readonly<Record<StrategyName, RecoveryStats>>>;
  readonly targets: readonly RecoveryTarget[];
  readonly markdown: string;
}

const STRATEGIES: readonly StrategyName[] = ['keel', 'blind', 'raw-ajv', 'keel-no-repair'];

function stats(outcomes: readonly ItemOutcome[]): RecoveryStats {
  const items = outcomes.length;
  const recovered = outcomes.filter((outcome) => outcome.recovered).length;
  const sum = (pick: (outcome: ItemOutcome) => number) => outcomes.reduce((total, outcome) => total + pick(outcome), 0);
  return {
    items,
    recovered,
    recoveredPct: items ? (100 * recovered) / items : 0,
    meanCalls: items ? sum((outcome) => outcome.calls) / items : 0,
    meanPromptTokens: items ? sum((outcome) => outcome.promptTokens) / items : 0,
  };
}

/** Checks the corpus is what it claims: sources valid, every output defective. */
async function checkCorpus(corpus: readonly CorpusItem[]): Promise<void> {
  for (const item of corpus) {
    const { schema } = schemas[item.schema];
    const keel = await toValidator(schema).validate(item.source);
    if (!keel.ok || !peerValidator(item.schema)(item.source)) throw new Error(`corpus item ${item.id}: the source object is not valid`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(item.text);
    } catch {
      continue;
    }
    if (peerValidator(item.schema)(parsed)) throw new Error(`corpus item ${item.id}: the defective output is valid`);
  }
}

const cell = (value: RecoveryStats) => `${value.recoveredPct.toFixed(0)}% · ${value.meanCalls.toFixed(2)} · ${value.meanPromptTokens.toFixed(0)}`;

/**
 * Recovery benchmark: a seeded corpus of defective outputs (3 schemas, 13 defect classes and
 * combinations) answered by a simulated model that repairs exactly what feedback names, under four
 * strategies. Per strategy and class: recovered %, model calls and prompt tokens per output.
 */
export async function measureRecovery(options: { seed?: number; perClass?: number; several?: number } = {}): Promise<RecoveryResult> {
  const seed = options.seed ?? 20_260_503;
  const corpus = buildCorpus({ seed, ...options });
  await checkCorpus(corpus);

  const outcomes = new Map<StrategyName, ItemOutcome[]>();
  for (const strategy of STRATEGIES) {
    const list: ItemOutcome[] = [];
    for (const item of corpus) list.push(await runStrategy(strategy, item));
    outcomes.set(strategy, list);
  }
  const over = (select: (item: CorpusItem) => boolean) =>
    Object.fromEntries(STRATEGIES.map((strategy) => [strategy, stats((outcomes.get(strategy) ?? []).filter((_outcome, index) => select(corpus[index] as CorpusItem)))])) as Record<
      StrategyName,
      RecoveryStats
    >;
  const overall = over(() => true);
  const groups = [...new Set(corpus.map((item) => item.group))];
  const byClass = new Map(groups.map((group) => [group, over((item) => item.group === group)]));

  const keel = outcomes.get('keel') ?? [];
  const missing = (predicate: (item: CorpusItem, outcome: ItemOutcome) => boolean) =>
    corpus.filter((item, index) => predicate(item, keel[index] as ItemOutcome)).map((item) => item.id);
  const targets: RecoveryTarget[] = [
    { name: 'Keel recovers every recoverable output', misses: missing((item, outcome) => item.recoverable && !outcome.recovered) },
    {
      name: 'Keel repairs syntactic defects locally with zero re-asks (1 model call)',
      misses: missing((item, outcome) => item.locallyRepairable && (outcome.calls !== 1 || !outcome.recovered)),
    },
    {
      name: 'Keel needs at most one re-ask per semantic defect set (plus one to resend a truncated output)',
      misses: missing((item, outcome) => !item.locallyRepairable && outcome.calls > item.idealCalls),
    },
  ].map((target) => ({ ...target, met: target.misses.length === 0 }));

  const count = (select: (item: CorpusItem) => boolean) => corpus.filter(select).length;
  const header = `| defect class (items) | ${STRATEGIES.map((strategy) => strategyLabels[strategy]).join(' | ')} |`;
  const rule = `| --- |${STRATEGIES.map(() => ' --- |').join('')}`;
  const classRows = groups.map((group) => `| ${group} (${count((item) => item.group === group)}) | ${STRATEGIES.map((strategy) => cell(byClass.get(group)?.[strategy] as RecoveryStats)).join(' | ')} |`);
  const natureRows = (
    [
      ['syntactic, locally repairable', (item: CorpusItem) => item.locallyRepairable],
      ['syntactic, truncated (needs the model)', (item: CorpusItem) => item.nature === 'syntactic' && !item.locallyRepairable],
      ['semantic (needs the model)', (item: CorpusItem) => item.nature === 'semantic'],
    ] as const
  ).map(([label, select]) => `| ${label} (${count(select)}) | ${STRATEGIES.map((strategy) => cell(over(select)[strategy])).join(' | ')} |`);
  const targetLines = targets.map((target) => {
    if (target.met) return `- ${target.name}: met.`;
    const shown = target.misses.slice(0, 8).join(', ');
    return `- ${target.name}: **not met** for ${target.misses.length} of ${corpus.length} outputs (${shown}${target.misses.length > 8 ? ', …' : ''}).`;
  });

  const markdown = `## Recovery from defective model output

A seeded corpus (seed ${seed}) of **${corpus.length}** realistic defective outputs built from valid objects
of three TypeBox schemas — a refund decision (${count((item) => item.schema === 'refund')}), a create-task tool call
(${count((item) => item.schema === 'task')}) and a nested order extraction (${count((item) => item.schema === 'extraction')}) — with one defect of each class
that applies to the schema, or 2–4 at once (\`several\`). A simulated model answers every
retry: it repairs exactly the value defects whose path **and** kind the feedback names, resends
complete bare JSON only when the feedback says the output did not parse, and repairs nothing
on a blind retry. Strategies: ${STRATEGIES.map((strategy) => `**${strategyLabels[strategy]}**`).join('; ')}.
Keel uses its defaults (\`maxAttempts\` 3); the raw-ajv strategy allows 2 retries and, like
Instructor, appends every failed output and its feedback to the conversation. Prompt tokens are
gpt-tokenizer (o200k) counts of the system prompt (task + JSON Schema, the same for all) and every
message's text, summed over every request of an output. Truncated outputs arrive with finish
reason \`stop\` (cut short mid-stream); at a token limit (\`length\`) Keel fails fast with
\`truncated\` instead of re-asking, since the same limit would cut the answer again.

Cells: recovered % · mean model calls per output · mean prompt tokens per output.

| strategy | recovered | mean model calls | mean prompt tokens |
| --- | --- | --- | --- |
${STRATEGIES.map((strategy) => `| ${strategyLabels[strategy]} | ${overall[strategy].recovered}/${overall[strategy].items} (${overall[strategy].recoveredPct.toFixed(1)}%) | ${overall[strategy].meanCalls.toFixed(2)} | ${overall[strategy].meanPromptTokens.toFixed(0)} |`).join('\n')}

${header}
${rule}
${classRows.join('\n')}
${natureRows.join('\n')}

Targets (Keel default):

${targetLines.join('\n')}
`;
  return { seed, corpusSize: corpus.length, strategies: STRATEGIES, overall, byClass, targets, markdown };
}
