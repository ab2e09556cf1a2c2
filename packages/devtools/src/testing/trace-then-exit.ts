/**
 * A child process for the exit tests: traces two runs to the file in argv[2] without calling
 * `flush()`, then ends as argv[3] says: `return` (the event loop empties), `exit`
 * (`process.exit()` at once) or `throw` (an uncaught error); or, with `unused`, makes the trace
 * and runs nothing.
 */
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { fileTrace } from '../trace/file-trace';

const [, , path, how] = process.argv;
const trace = fileTrace(path as string);
if (how !== 'unused') await traceRuns();

async function traceRuns(): Promise<void> {
  const agent = Agent.create({ provider: scriptedModel(['first answer', 'second answer']), model: 'm' }).use(trace).build();
  await agent.run('one');
  await agent.run('two');
  if (how === 'exit') process.exit(0);
  if (how === 'throw') throw new Error('crashed after the runs');
}
