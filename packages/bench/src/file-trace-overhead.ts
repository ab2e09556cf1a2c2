import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentBuilder } from '@keel/core';
import { fileTrace } from '@keel/devtools';
import { interleave, minorGc, pairedRatio, type Timing, us } from './measure';
import { keelAgentBuilder } from './overhead';
import { pageAgent } from '../../devtools/src/testing/page-run';

const INPUT = 'Refund order A-1182';
/** An 8 KB page of HTML-like text, quotes included (escaped in JSON, as a real page's are). */
/** The target: a 100-step run with an 8 KB page a step, content included, writes at most this. */
const MAX_BYTES_100 = 2 * 1024 * 1024;
/** The target: the 100-step run writes at most this many times the 25-step run's bytes (linear growth: 4x). */
const MAX_GROWTH = 4.5;

/** One row of the table: a kind of run, traced and untraced, side by side. */
export interface FileTraceRow {
  readonly name: string;
  readonly recordContent: boolean;
  readonly steps: number;
  /** Bytes the traced run appends to the file. */
  readonly bytes: number;
  readonly lines: number;
  readonly untraced: Timing;
  /** The same agent with a journal listener that does nothing: what core's journal costs once something reads it (an untraced run makes no entry). */
  readonly listened: Timing;
  readonly traced: Timing;
  /** Traced / untraced, per round. */
  readonly ratio: { readonly median: number; readonly p25: number; readonly p75: number };
  /** Listened / untraced, per round. */
  readonly journalRatio: { readonly median: number; readonly p25: number; readonly p75: number };
}

/** What tracing to a file writes and costs. */
export interface FileTraceFigures {
  readonly rows: readonly FileTraceRow[];
  readonly bytes25: number;
  readonly bytes100: number;
  readonly growth: number;
  readonly targets: readonly { readonly name: string; readonly figure: string; readonly met: boolean }[];
  readonly markdown: string;
}

/** Times one kind of run traced and untraced, side by side, and measures what one traced run writes. */
async function row<TOutput, THasSchema extends boolean>(name: string, steps: number, recordContent: boolean, builder: () => AgentBuilder<TOutput, THasSchema>, rounds: number, blocks: number): Promise<FileTraceRow> {
  const folder = mkdtempSync(join(tmpdir(), 'keel-bench-file-trace-'));
  const file = join(folder, 'runs.jsonl');
  const trace = fileTrace(file, { recordContent });
  const failures: string[] = [];
  const traced = builder()
    .use(trace)
    .on('listener.error', (event) => void failures.push(event.message))
    .build();
  const untraced = builder().build();
  const listened = builder()
    .onJournal(() => undefined)
    .build();
  await traced.run(INPUT);
  await trace.flush();
  const bytes = statSync(file).size;
  const lines = readFileSync(file, 'utf8').split('\n').length - 1;
  const timings = await interleave(
    [
      { name: 'untraced', run: () => untraced.run(INPUT) },
      { name: 'listened', run: () => listened.run(INPUT) },
      { name: 'traced', run: () => traced.run(INPUT) },
    ],
    {
      rounds,
      blocks,
      block: 5,
      warmup: 20,
      between: async () => {
        await trace.flush();
        truncateSync(file);
        minorGc();
      },
    },
  );
  rmSync(folder, { recursive: true, force: true });
  if (failures.length > 0) throw new Error(`the traced agent reported trace failures: ${failures.join('; ')}`);
  const withTrace = timings.get('traced') as Timing;
  const without = timings.get('untraced') as Timing;
  const journalOnly = timings.get('listened') as Timing;
  return { name, recordContent, steps, bytes, lines, untraced: without, listened: journalOnly, traced: withTrace, ratio: pairedRatio(withTrace, without), journalRatio: pairedRatio(journalOnly, without) };
}

/**
 * `fileTrace()` from `@keel/devtools` against the same runs untraced, side by side: the overhead
 * benchmark's agent (one tool call, a validated answer) without content, and runs of 25 and 100
 * steps whose tool returns an 8 KB page, with content. Each side runs in short interleaved blocks
 * (`interleave`); the trace is flushed and the file emptied between rounds.
 */
export async function measureFileTrace(): Promise<FileTraceFigures> {
  const rows = [
    await row('one tool call, a validated answer (the overhead benchmark)', 2, false, keelAgentBuilder, 20, 100),
    await row('25 steps, an 8 KB page a step', 25, true, () => pageAgent(25), 15, 4),
    await row('100 steps, an 8 KB page a step', 100, true, () => pageAgent(100), 15, 2),
  ];
  const bytes25 = (rows[1] as FileTraceRow).bytes;
  const bytes100 = (rows[2] as FileTraceRow).bytes;
  const growth = bytes100 / bytes25;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  const targets = [
    { name: '`fileTrace` with content of a 100-step run with 8 KB tool results ≤ 2 MB', figure: `${mb(bytes100)} (${bytes100.toLocaleString('en')} bytes)`, met: bytes100 <= MAX_BYTES_100 },
    { name: '`fileTrace` of the 100-step run ≤ 4.5x the 25-step run (linear)', figure: `${growth.toFixed(2)}x`, met: growth <= MAX_GROWTH },
  ];
  const ratio = (value: FileTraceRow['ratio']) => `${value.median.toFixed(3)}x (interquartile ${value.p25.toFixed(3)}x – ${value.p75.toFixed(3)}x)`;
  const markdown = `## Tracing to a file

\`fileTrace()\` from \`@keel/devtools\` appends each entry of a run's journal once, as it is written, and the few events
no entry tells; lines are batched on the run's thread and appended in one write a second after the first, at 512
lines or 1 MiB, on \`flush()\` and at exit. Each kind of run below ran traced and untraced, side by side in short
interleaved blocks (a zero-latency scripted model, so the ratio is the trace's cost against Keel's own work, with
no model time to hide it); the file was flushed and emptied between rounds. Bytes are one run's, as written.

| run | content | trace bytes a run | lines | untraced | journal read, nothing written | traced | traced / untraced (per round) |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.map((entry) => `| ${entry.name} | ${entry.recordContent ? 'yes' : 'no'} | ${entry.bytes.toLocaleString('en')} | ${entry.lines} | ${us(entry.untraced.medianUs)} | ${us(entry.listened.medianUs)} (${entry.journalRatio.median.toFixed(2)}x) | ${us(entry.traced.medianUs)} | ${ratio(entry.ratio)} |`).join('\n')}

An untraced run makes no journal entry (core makes them only when something reads them): the column "journal read,
nothing written" is the same agent with \`onJournal(() => {})\`, what any journal reader costs before it writes a byte.

The 100-step run writes ${mb(bytes100)}, ${growth.toFixed(2)}x the 25-step run's ${mb(bytes25)}: each step's entries hold what the
step added (its model call, the tool's 8 KB result once, in the tool call's record: the kept messages are made from it),
never a copy of what earlier entries hold, so the file grows linearly with the run.
`;
  return { rows, bytes25, bytes100, growth, targets, markdown };
}
