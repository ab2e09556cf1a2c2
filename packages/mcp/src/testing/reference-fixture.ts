// Run by reference-servers.test.ts in a child process (with and without
// `--disallow-code-generation-from-strings`): the reference suite, printed as JSON on the last line.
// By hand, from packages/mcp: node --import tsx --conditions=@keel/source src/testing/reference-fixture.ts
import { runReferenceSuite } from './reference-suite';

const report = await runReferenceSuite();
const passed = report.outcomes.filter((outcome) => outcome.ok).length;
process.stderr.write(`reference tools: ${passed}/${report.outcomes.length} passed, code generation ${report.codeGeneration ? 'allowed' : 'forbidden'}\n`);
process.stdout.write(`${JSON.stringify(report)}\n`);
