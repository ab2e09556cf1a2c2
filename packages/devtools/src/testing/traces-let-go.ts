/**
 * A child process (run with `--expose-gc`) for the memory test: makes a trace for each of many
 * tasks, each traced to the file in argv[2] and flushed, lets them all go, then prints how many
 * traces the writing thread still serves once they are collected.
 */
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { fileTrace } from '../trace/file-trace';
import { servedTraces } from '../trace/trace-thread';

const [, , path] = process.argv;
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');

for (let task = 0; task < 100; task++) {
  const trace = fileTrace(path as string);
  await Agent.create({ provider: scriptedModel('ok'), model: 'm' }).use(trace).build().run(`task ${task}`);
  await trace.flush();
}
// Collected traces are let go in turns (the writing thread answers each close): collect until they are
// (the last may still be held by this module's frame).
for (let turn = 0; turn < 50 && servedTraces() > 1; turn++) {
  collect();
  await new Promise((resolve) => setTimeout(resolve, 20));
}
process.stdout.write(`${servedTraces()}\n`);
