import { measureFileTrace } from './file-trace-overhead';
const figures = await measureFileTrace();
console.log(figures.markdown);
