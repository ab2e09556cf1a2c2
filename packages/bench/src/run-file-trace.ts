/** The file-trace benchmark alone (`pnpm bench` runs it with the others): `npx tsx --expose-gc src/run-file-trace.ts` from packages/bench. */
import { measureFileTrace } from './file-trace-overhead';

const figures = await measureFileTrace();
console.log(figures.markdown);
for (const target of figures.targets) console.log(`${target.met ? 'met' : 'NOT MET'}: ${target.name}: ${target.figure}`);
