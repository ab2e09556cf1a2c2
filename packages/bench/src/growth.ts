import { Agent, type Message } from '@keel/core';
import { type ModelProviderV1 } from '@keel/provider';
import { formatFeedback, toValidator } from '@keel/reliability';
import { checkOutput, extractJson } from '@keel/reliability/internal';
import { Type } from '@sinclair/typebox';
import { type ConcurrencyFigures, concurrencyMarkdown, measureConcurrency } from './concurrency';
import { compare, minorGc, pairedRatio, type Timing } from './measure';
import { keelAgent, METRIC_EVENTS, metricsAgent } from './overhead';
import { finalTurn } from './zero-latency-model';

/** One row of a growth table: the input size and the time it took. */
export interface GrowthRow {
  readonly size: number;
  readonly label: string;
  readonly timing: Timing;
}

const answering: ModelProviderV1 = { specificationVersion: 'v1', name: 'zero-latency', generate: async () => finalTurn };

function conversation(length: number): Message[] {
  return Array.from({ length }, (_, index): Message => (index % 2 === 0 ? { role: 'user', content: `Question ${index}: what is the status of order A-${1000 + index}?` } : { role: 'assistant', content: [{ type: 'text', text: `Order A-${1000 + index} shipped on Monday.` }] }));
}

/** Per-step cost of a run whose input holds `length` kept messages (one step, zero-latency model). */
async function perStep(): Promise<GrowthRow[]> {
  const agent = Agent.create({ provider: answering, model: 'bench' }).build();
  const sizes = [10, 100, 1000, 5000];
  const inputs = new Map(sizes.map((size) => [size, [...conversation(size - 1), { role: 'user', content: 'And order A-1?' } as Message]]));
  const timings = await compare(
    sizes.map((size) => ({ name: String(size), run: () => agent.run(inputs.get(size) as Message[]) })),
    { rounds: 12, batch: 40, warmup: 100 },
  );
  return sizes.map((size) => ({ size, label: `${size.toLocaleString('en')} messages`, timing: timings.get(String(size)) as Timing }));
}

/** A JSON-like reply of about `bytes` characters with bare keys, single quotes and trailing commas, in prose. */
function repairable(bytes: number): string {
  const items: string[] = [];
  let length = 40;
  for (let index = 0; length < bytes; index++) {
    const item = `{sku: 'SKU-${index}', qty: ${1 + (index % 5)}, tags: ['a', 'b',],}`;
    items.push(item);
    length += item.length + 2;
  }
  return `Here it is: {items: [${items.join(', ')}]} Thanks.`;
}

async function repairTime(): Promise<GrowthRow[]> {
  const sizes = [1024, 100 * 1024, 1024 * 1024];
  const texts = new Map(sizes.map((size) => [size, repairable(size)]));
  for (const text of texts.values()) if (!extractJson(text).ok) throw new Error('the growth input did not repair');
  const timings = await compare(
    sizes.map((size) => ({ name: String(size), run: async () => extractJson(texts.get(size) as string) })),
    { rounds: 6, batch: 3, warmup: 3 },
  );
  return sizes.map((size) => ({ size, label: size >= 1024 * 1024 ? `${size / 1024 / 1024} MB` : `${size / 1024} KB`, timing: timings.get(String(size)) as Timing }));
}

const Items = Type.Object({ items: Type.Array(Type.Object({ sku: Type.String(), size: Type.Union([Type.Literal('S'), Type.Literal('M'), Type.Literal('L')]), price: Type.Number() })) });

async function feedbackTime(): Promise<GrowthRow[]> {
  const validator = toValidator(Items);
  const sizes = [10, 100, 1000];
  const texts = new Map(sizes.map((size) => [size, JSON.stringify({ items: Array.from({ length: size }, (_, index) => ({ sku: `A${index}`, size: 'XL', price: `${index} EUR` })) })]));
  const feedback = (size: number) => {
    const check = checkOutput(texts.get(size) as string, validator, { coerce: false });
    if (check instanceof Promise || check.ok) throw new Error('the growth input did not fail');
    return formatFeedback({ stage: 'schema-validate', issues: check.failure.issues });
  };
  const timings = await compare(
    sizes.map((size) => ({ name: String(size), run: async () => feedback(size) })),
    { rounds: 8, batch: 5, warmup: 5 },
  );
  return sizes.map((size) => ({ size, label: `${size.toLocaleString('en')} bad items`, timing: timings.get(String(size)) as Timing }));
}

/** Keel's run with a metrics listener on 15 events against the same run without: per-round ratios. */
async function listenerOverhead(): Promise<{ with: Timing; without: Timing; median: number; p25: number; p75: number }> {
  const plain = keelAgent();
  const observed = metricsAgent();
  const timings = await compare(
    [
      { name: 'with', run: () => observed.run('Refund order A-1182') },
      { name: 'without', run: () => plain.run('Refund order A-1182') },
    ],
    // Batches long enough to collect several times, each started with an empty young generation:
    // each side pays for its own garbage, and no batch for the one before it.
    { rounds: 30, batch: 1000, warmup: 1000, settle: minorGc },
  );
  const withListener = timings.get('with') as Timing;
  const without = timings.get('without') as Timing;
  return { with: withListener, without, ...pairedRatio(withListener, without) };
}

/** What the per-step table shows, in words computed from it. */
function stepsNote(rows: readonly GrowthRow[]): string {
  const [, , thousand, fiveThousand] = rows;
  if (!thousand || !fiveThousand) return '';
  const marginal = (fiveThousand.timing.medianUs - thousand.timing.medianUs) / (fiveThousand.size - thousand.size);
  return `From 1,000 to 5,000 kept messages each further message adds ${marginal.toFixed(3)} µs per step. A run makes no deep copy of its input (each message object is copied shallowly, once per run) and \`InMemoryStore.load\` hands out frozen messages without copying them; what still grows with the conversation is the request's message list, which the provider serialises anyway.`;
}

/** Every growth measurement, and the markdown for docs/benchmarks.md. */
export async function measureGrowth(): Promise<{ markdown: string; listenerRatio: number; listenerP75: number; concurrency: readonly ConcurrencyFigures[] }> {
  const steps = await perStep();
  const repair = await repairTime();
  const feedback = await feedbackTime();
  const parallel = await measureConcurrency();
  const listener = await listenerOverhead();
  const table = (rows: readonly GrowthRow[], unit: number, unitLabel: string) =>
    rows.map((row) => `| ${row.label} | ${row.timing.medianUs.toFixed(1)} µs | ${(row.timing.medianUs / (row.size / unit)).toFixed(2)} µs ${unitLabel} |`).join('\n');
  const markdown = `## Costs as the work grows

Each table times one operation at growing input sizes, side by side in rounds; the last column
divides by the size, so a flat column is linear growth.

Per-step overhead of a run by kept messages in its input (one step, zero-latency model, no tools):

| input | per step | per message |
| --- | --- | --- |
${table(steps, 1, 'per message')}

Local extraction and repair (\`extractJson\`) of a reply with prose, bare keys, single quotes and trailing commas:

| reply size | time | per KB |
| --- | --- | --- |
${table(repair, 1024, 'per KB')}

Validation and feedback of a reply whose array items each have two bad fields (an enum and a number with a unit):

| bad items | time | per item |
| --- | --- | --- |
${table(feedback, 1, 'per item')}

${stepsNote(steps)}

${concurrencyMarkdown(parallel)}

A metrics listener on ${METRIC_EVENTS.length} events (counting each) against the same agent without listeners, in 30
rounds of 1,000 runs a side (a minor GC before each batch, so each side pays for its own garbage): median
per-round ratio **${listener.median.toFixed(2)}x** (interquartile range ${listener.p25.toFixed(2)}x – ${listener.p75.toFixed(2)}x;
${listener.with.medianUs.toFixed(1)} µs vs ${listener.without.medianUs.toFixed(1)} µs per run). Each event a listener hears costs its payload, a
timestamp and freezing the payload (so no listener can change what another sees); the bus walks
its listener list without copying it and calls each listener directly, and the events of every run
(run, step, model call and tool events) are built where they happen as one object literal, frozen
as it is, with no copy: merging fields into a payload (\`Object.assign\`, or worse an object spread,
which V8 makes about 50 times slower once frozen) cost several times the literal. ${
    listener.p75 < 1.6
      ? `Before the payload and bus changes it was 1.6x; three quarters of the rounds now stay under ${listener.p75.toFixed(2)}x.`
      : 'Before the payload and bus changes it was 1.6x; the spread above is too wide on a shared machine to claim less than that.'
  }

`;
  return { markdown, listenerRatio: listener.median, listenerP75: listener.p75, concurrency: parallel };
}
