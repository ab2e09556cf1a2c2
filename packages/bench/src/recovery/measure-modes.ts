import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { Agent, type ModelResponse } from '@keel/core';
import type { ModelProviderV1 } from '@keel/provider';
import { buildCorpus, type CorpusItem } from './corpus';
import { type DefectClass, type DefectKind, renderOutput } from './render';
import { schemas } from './schemas';
import { SimulatedModel } from './simulated-model';

/** The output modes compared. */
export type ModeName = 'prompt' | 'native' | 'tool';
const MODES: readonly ModeName[] = ['prompt', 'native', 'tool'];

/**
 * What a constrained decoder makes impossible, with a schema lowered as Anthropic's decoder takes
 * it (objects closed, required properties, types, enums and formats enforced; numeric bounds and
 * string lengths removed): every text-level defect but a cut-off stream, and every value defect
 * of a kind the lowered schema still states. A value below a `minimum` stays possible.
 */
const ENFORCED_KINDS: ReadonlySet<DefectKind> = new Set(['missing', 'extra', 'type', 'enum', 'format']);

/** The item as a model under constrained decoding could first answer it. */
export function constrained(item: CorpusItem): CorpusItem {
  const valueDefects = item.valueDefects.filter((defect) => !ENFORCED_KINDS.has(defect.kind));
  const syntaxDefects = item.syntaxDefects.filter((defect) => defect.class === 'truncated');
  return { ...item, valueDefects, syntaxDefects, text: renderOutput(item.source, valueDefects, syntaxDefects, 0) };
}

/** One run's outcome. */
interface ModeOutcome {
  readonly recovered: boolean;
  /** Model calls after the first. */
  readonly reAsks: number;
}

const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A provider around the simulated model that answers as the mode asks: text, or a call of the answer tool. */
function modeProvider(model: SimulatedModel, mode: ModeName): ModelProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'simulated',
    // Native output declared only for the native run; the tool run sets its mode explicitly.
    capabilities: () => (mode === 'native' ? { nativeOutput: true } : {}),
    lowerSchema: (schema) => ({ schema, changes: [] }),
    generate: async (request): Promise<ModelResponse> => {
      const text = model.answer(request.messages);
      if (mode === 'tool' && request.tools?.some((tool) => tool.name === 'final_answer')) {
        return { content: [{ type: 'tool-call', id: `answer-${model.calls}`, name: 'final_answer', arguments: {}, argumentsText: text }], text: '', finishReason: 'tool-calls', usage };
      }
      return { content: [{ type: 'text', text }], text, finishReason: 'stop', usage };
    },
  };
}

async function runMode(item: CorpusItem, mode: ModeName): Promise<ModeOutcome> {
  const answered = mode === 'prompt' ? item : constrained(item);
  const model = new SimulatedModel(answered);
  const { schema, system } = schemas[item.schema];
  const agent = Agent.create({ provider: modeProvider(model, mode), model: 'simulated' })
    .system(system)
    .outputSchema(schema, { mode: mode === 'native' ? 'auto' : mode })
    .build();
  let recovered = false;
  try {
    recovered = isDeepStrictEqual(await agent.runTyped(item.prompt), item.source);
  } catch {
    recovered = false;
  }
  return { recovered, reAsks: model.calls - 1 };
}

/** Per mode: recovered share and mean re-asks. */
interface ModeStats {
  readonly items: number;
  readonly recoveredPct: number;
  readonly meanReAsks: number;
  /** Outputs that needed at least one re-ask. */
  readonly reAsked: number;
}

function stats(outcomes: readonly ModeOutcome[]): ModeStats {
  const items = outcomes.length;
  const recovered = outcomes.filter((outcome) => outcome.recovered).length;
  return {
    items,
    recoveredPct: items ? (100 * recovered) / items : 0,
    meanReAsks: items ? outcomes.reduce((total, outcome) => total + outcome.reAsks, 0) / items : 0,
    reAsked: outcomes.filter((outcome) => outcome.reAsks > 0).length,
  };
}

export interface ModesResult {
  readonly corpusSize: number;
  readonly overall: Readonly<Record<ModeName, ModeStats>>;
  readonly byClass: ReadonlyMap<DefectClass, Readonly<Record<ModeName, ModeStats>>>;
  readonly markdown: string;
}

const cell = (value: ModeStats) => `${value.meanReAsks.toFixed(2)} · ${value.reAsked} · ${value.recoveredPct.toFixed(0)}%`;

/**
 * Re-asks per defect class and output mode: the recovery corpus answered in `prompt` mode as it
 * is, and in `native` and `tool` mode by a model under a simulated constrained decoder (syntax
 * defects and those the lowered schema states are impossible; the rest stay). Keel validates the
 * full schema in every mode, so what the decoder cannot enforce is still re-asked.
 */
export async function measureModes(options: { seed?: number } = {}): Promise<ModesResult> {
  const seed = options.seed ?? 20_260_503;
  const corpus = buildCorpus({ seed });
  const outcomes = new Map<ModeName, ModeOutcome[]>();
  for (const mode of MODES) {
    const list: ModeOutcome[] = [];
    for (const item of corpus) list.push(await runMode(item, mode));
    outcomes.set(mode, list);
  }
  const over = (select: (item: CorpusItem) => boolean) =>
    Object.fromEntries(MODES.map((mode) => [mode, stats((outcomes.get(mode) ?? []).filter((_outcome, index) => select(corpus[index] as CorpusItem)))])) as Record<ModeName, ModeStats>;
  const groups = [...new Set(corpus.map((item) => item.group))];
  const byClass = new Map(groups.map((group) => [group, over((item) => item.group === group)]));
  const overall = over(() => true);
  const count = (group: DefectClass) => corpus.filter((item) => item.group === group).length;
  const markdown = `## Re-asks per output mode

The recovery corpus (seed ${seed}, ${corpus.length} outputs) answered in each output mode by the same
feedback-reading model. In \`prompt\` mode it first writes the defective output as it is; in
\`native\` and \`tool\` mode a simulated constrained decoder, with the schema lowered as Anthropic's
decoder takes it, makes impossible every text-level defect but a cut-off stream and every value
defect the lowered schema states (missing or unknown properties, wrong types, enum values,
formats); a number under its \`minimum\` stays possible, since lowering removes numeric bounds.
Keel validates the full schema in every mode.

Cells: mean re-asks per output · outputs re-asked · recovered %.

| defect class (items) | ${MODES.join(' | ')} |
| --- |${MODES.map(() => ' --- |').join('')}
${groups.map((group) => `| ${group} (${count(group)}) | ${MODES.map((mode) => cell(byClass.get(group)?.[mode] as ModeStats)).join(' | ')} |`).join('\n')}
| all (${corpus.length}) | ${MODES.map((mode) => cell(overall[mode])).join(' | ')} |
`;
  return { corpusSize: corpus.length, overall, byClass, markdown };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) console.log((await measureModes()).markdown);
