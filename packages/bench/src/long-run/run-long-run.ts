/** `pnpm --filter @keel/bench bench:long-run`: the long-run (compaction) slice alone, printed as markdown. */
import { measureLongRun } from './measure-long-run';

const result = await measureLongRun();
console.log(result.markdown);
for (const target of result.targets) console.log(`${target.met ? 'met' : 'NOT MET'}  ${target.name}: ${target.figure}`);
