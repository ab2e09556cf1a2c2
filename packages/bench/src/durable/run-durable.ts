/** `pnpm --filter @keel/bench bench:durable`: the durable-runs section of `pnpm bench` alone, printed. */
import { measureDurable } from './measure-durable';

const figures = await measureDurable();
console.log(figures.markdown);
