import { readFile } from 'node:fs/promises';
import { EvalConfigurationError } from '../errors/eval-configuration-error';
import type { EvalReport } from '../evaluate/eval-report';
import { reportProblem } from './report-shape';

/**
 * Reads a report `keel-eval` wrote (a baseline), checking it has every field a comparison reads
 * (see `reportProblem`), so a baseline that is not one is refused before any model call.
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
  const problem = reportProblem(data);
  if (problem !== undefined) throw new EvalConfigurationError({ message: problem.startsWith('is not') ? `${path} ${problem}` : `the report ${path} ${problem}` });
  return data as unknown as EvalReport;
}
