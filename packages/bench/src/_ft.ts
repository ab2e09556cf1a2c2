import { measureFileTrace } from './file-trace-overhead';
const f = await measureFileTrace();
console.log(f.markdown);
