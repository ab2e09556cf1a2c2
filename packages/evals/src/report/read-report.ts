import { readFile } from 'node:fs/promises';
import { EvalConfigurationError } from '../errors/eval-configuration-error';
import type { EvalReport } from '../evaluate/eval-report';

const OUTCOMES: ReadonlySet<unknown> = new Set(['pass', 'fail', 'error']);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a report `keel-eval` wrote (a baseline), checking it is one.
 * @throws {EvalConfigurationError} when the file is missing, not JSON, or not an eval report.
 */
export async function readReport(path: string): Promise<EvalReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EvalConfigurationError({ message: `the report ${path} cannot be read (${(error as Error).message})`, cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new EvalConfigurationError({ message: `the report ${path} is not JSON`, cause: error });
  }
  if (!isObject(data) || data['keelEvalReport'] !== 1 || !isObject(data['summary']) || !Array.isArray(data['items'])) throw new EvalConfigurationError({ message: `${path} is not an eval report (keelEvalReport 1, with summary and items)` });
  const summary = data['summary'];
  for (const figure of ['passRate', 'firstPassValidity', 'reAsksPerItem', 'loops', 'errored']) {
    if (typeof summary[figure] !== 'number') throw new EvalConfigurationError({ message: `the report ${path} has no summary.${figure}` });
  }
  if ((data['items'] as unknown[]).some((item) => !isObject(item) || typeof item['id'] !== 'string' || !OUTCOMES.has(item['outcome']))) throw new EvalConfigurationError({ message: `the report ${path} has an item without id or outcome (pass, fail or error)` });
  return data as unknown as EvalReport;
}
