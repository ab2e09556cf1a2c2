/**
 * Runs one warmed-up agent call under V8 precise coverage and prints, as JSON, the source files of
 * core and reliability that executed a function beyond their module's evaluation (this file
 * apart). Started in a child process by `architecture/run-coverage.test.ts` (so no test
 * instrumentation is counted), with the `@keel/source` condition and tsx, so the files counted
 * are the sources themselves:
 *
 *   node --conditions=@keel/source --import tsx packages/core/src/testing/run-coverage-fixture.ts
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import { Agent } from '../index';
import { scriptedModel } from '../testing/index';

const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() }, { additionalProperties: false });
const answer = { text: '{"action":"refund","amount":50}', usage: { inputTokens: 120, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 } };

// The agent is built, and warmed up, before measuring: what is counted is one run.
const agent = Agent.create({ provider: scriptedModel(() => answer), model: 'probe' }).outputSchema(Refund).build();
for (let run = 0; run < 50; run++) await agent.run('Refund order 42?');

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
// Taking coverage resets the counters: only the measured run is counted.
await session.post('Profiler.takePreciseCoverage');
const result = await agent.run('Refund order 42?');
const { result: scripts } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
session.disconnect();

if (result.attempts.length !== 1 || result.status !== 'complete' || result.value === undefined) throw new Error('the probe run must make one valid model call');
const root = fileURLToPath(new URL('../../../', import.meta.url));
const self = fileURLToPath(import.meta.url);
const files = new Set<string>();
for (const script of scripts) {
  if (!script.url.startsWith('file:')) continue;
  const path = fileURLToPath(script.url);
  if (!path.startsWith(root) || path === self) continue;
  const relative = path.slice(root.length);
  if (!/^(core|reliability)\/src\/.*\.ts$/.test(relative)) continue;
  // The first function is the module's own evaluation; any other with a count ran for the run.
  const ran = script.functions.some((fn) => fn.ranges[0]?.startOffset !== 0 && (fn.ranges[0]?.count ?? 0) > 0);
  if (ran) files.add(relative);
}
process.stdout.write(JSON.stringify([...files].sort()));
