/** The file-trace benchmark alone (`pnpm bench` runs it with the others), from packages/bench: `node --conditions=@keel/source --expose-gc --import tsx src/run-file-trace.ts`. */
import { measureFileTrace } from './file-trace-overhead';

const figures = await measureFileTrace();
console.log(figures.markdown);
for (const target of figures.targets) console.log(`${target.met ? 'met' : 'NOT MET'}: ${target.name}: ${target.figure}`);
