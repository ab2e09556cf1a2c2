/** `pnpm --filter @keel/bench bench:large`: the large-output slice alone, printed as markdown. */
import { measureLargeOutput } from './measure-large-output';

const result = await measureLargeOutput();
console.log(result.markdown);
for (const target of result.targets) console.log(`${target.met ? 'met' : 'NOT MET'}  ${target.name}: ${target.figure}`);
