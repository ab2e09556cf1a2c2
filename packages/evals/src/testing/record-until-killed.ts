/**
 * A process that records into a cassette without end, for the test that kills it mid-write:
 * `node --import tsx --conditions=@keel/source record-until-killed.ts <cassette path>`. Every
 * answer is large, so each write of the growing file takes a while. Prints `saved <n>` after each.
 */
import { scriptedModel } from '@keel/core/test';
import { cassette } from '../cassette/cassette';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: record-until-killed.ts <cassette path>');
const recorder = cassette(scriptedModel((_request, call) => `answer ${call}: ${'x'.repeat(200_000)}`), { path, mode: 'record' });
for (let call = 1; ; call++) {
  await recorder.generate({ model: 'm', messages: [{ role: 'user', content: `question ${call}` }] }, {});
  process.stdout.write(`saved ${call}\n`);
}
