/** What `keel-eval` was asked to do. */
export interface EvalCommand {
  readonly file: string;
  /** Folder the reports go to. */
  readonly out: string;
  readonly baseline?: string;
  readonly minPassRate?: number;
  readonly concurrency?: number;
}

export const USAGE = `Usage: keel-eval <eval file> [--out <folder>] [--baseline <report.json>] [--min-pass-rate <0..1>] [--concurrency <n>]

Runs the eval an ES module exports (default export, or \`eval\`: { agent, dataset, scorers?, concurrency?, name? },
or a function returning it), writes <folder>/<name>.json and <folder>/<name>.html (default folder: eval-reports),
and exits 1 when a figure regressed against the baseline report or the pass rate is under the minimum, 2 on a usage
or eval error, 0 otherwise.`;

/** A decimal number as written (`0.9`, `.5`, `1`, `2e-1`); `NaN` for anything else: blanks, `0x1`, `Infinity`. */
function decimal(text: string | undefined): number {
  return text !== undefined && /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(text) ? Number(text) : Number.NaN;
}

/** Parses the command line; a string is the error to print with the usage. */
export function parseArguments(argv: readonly string[]): EvalCommand | string {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let at = 0; at < argv.length; at++) {
    const arg = argv[at] as string;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (!['out', 'baseline', 'min-pass-rate', 'concurrency'].includes(name)) return `unknown option --${name}`;
    const value = inline ?? argv[++at];
    if (value === undefined || value === '') return `--${name} needs a value`;
    options.set(name, value);
  }
  if (positional.length !== 1) return positional.length === 0 ? 'no eval file given' : `one eval file at a time, not ${positional.length}`;
  const minPassRate = options.has('min-pass-rate') ? decimal(options.get('min-pass-rate')) : undefined;
  if (minPassRate !== undefined && !(minPassRate >= 0 && minPassRate <= 1)) return `--min-pass-rate must be a number from 0 to 1, not ${JSON.stringify(options.get('min-pass-rate'))}`;
  const concurrency = options.has('concurrency') ? decimal(options.get('concurrency')) : undefined;
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) return '--concurrency must be a whole number of 1 or more';
  const baseline = options.get('baseline');
  return {
    file: positional[0] as string,
    out: options.get('out') ?? 'eval-reports',
    ...(baseline === undefined ? {} : { baseline }),
    ...(minPassRate === undefined ? {} : { minPassRate }),
    ...(concurrency === undefined ? {} : { concurrency }),
  };
}
