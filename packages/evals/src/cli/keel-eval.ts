/**
 * The `keel-eval` command: runs an eval file, writes its report as JSON and HTML, and exits
 * non-zero on a regression against a baseline report (for CI). See `keel-eval --help`.
 */
import { errorMessageOf } from '@keel/core/internal';
import { parseArguments, USAGE } from './parse-arguments';
import { runEvalCommand } from './run-eval-command';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE);
} else {
  const command = parseArguments(argv);
  if (typeof command === 'string') {
    console.error(`keel-eval: ${command}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    try {
      const outcome = await runEvalCommand(command);
      for (const line of outcome.lines) console.log(line);
      process.exitCode = outcome.exitCode;
    } catch (error) {
      console.error(`keel-eval: ${errorMessageOf(error)}`);
      process.exitCode = 2;
    }
  }
}
