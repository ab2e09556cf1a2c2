import type { RecordedRun } from '@keel/core';

/** Slots of the memory the floor copies into, reused from the start when full. */
const SLOTS = 1 << 17;

/**
 * The least any trace must do on the thread that runs the agent, whatever it writes and however:
 * read each field of the run's record once and store it somewhere. A record listener that copies
 * the same fields `fileTrace` keeps (every string's characters, every number) into one reused
 * block of memory, and does nothing else: no encoding of names, no shared memory of its own, no
 * thread, no file. Its cost beside an untraced run is the floor under any trace's.
 */
export function recordCopyFloor(): (run: RecordedRun) => void {
  const numbers = new Float64Array(SLOTS);
  const units = new Uint16Array(numbers.buffer);
  let at = 0;
  const text = (value: string | undefined) => {
    if (value === undefined) {
      numbers[at++] = -1;
      return;
    }
    const length = value.length;
    numbers[at] = length;
    const from = (at + 1) * 4;
    for (let index = 0; index < length; index++) units[from + index] = value.charCodeAt(index);
    at += 1 + ((length + 3) >> 2);
  };
  return (run) => {
    if (at > SLOTS / 2) at = 0;
    const { record } = run;
    const usage = record.usage;
    text(run.runId);
    text(run.parentRunId);
    text(run.parentToolCallId);
    text(record.finishReason);
    numbers[at++] = record.startedAt;
    numbers[at++] = record.durationMs;
    numbers[at++] = run.loopsDetected;
    numbers[at++] = usage.modelCalls;
    numbers[at++] = usage.inputTokens;
    numbers[at++] = usage.outputTokens;
    numbers[at++] = usage.cacheReadTokens;
    numbers[at++] = usage.cacheWriteTokens;
    numbers[at++] = usage.costUsd ?? Number.NaN;
    for (const target of run.targets) {
      text(target.provider);
      text(target.model);
    }
    for (const attempt of run.ownAttempts) {
      const spent = attempt.usage;
      text(attempt.toolCallId);
      text(attempt.purpose);
      text(attempt.status);
      text(attempt.errorKind);
      numbers[at++] = attempt.step;
      numbers[at++] = attempt.attempt;
      numbers[at++] = attempt.providerIndex;
      numbers[at++] = attempt.issues.length;
      numbers[at++] = attempt.elapsedMs;
      numbers[at++] = spent.inputTokens;
      numbers[at++] = spent.outputTokens;
      numbers[at++] = spent.cacheReadTokens;
      numbers[at++] = spent.cacheWriteTokens;
      numbers[at++] = spent.costUsd ?? Number.NaN;
      numbers[at++] = attempt.feedbackSent ? 1 : 0;
    }
    for (const step of record.steps) {
      text(step.finishReason);
      numbers[at++] = step.step;
      numbers[at++] = step.toolCalls;
      numbers[at++] = step.modelCalls;
      numbers[at++] = step.durationMs;
    }
    for (const call of record.toolCalls) {
      text(call.id);
      text(call.name);
      text(call.errorCode);
      numbers[at++] = call.step;
      numbers[at++] = call.isError ? 1 : 0;
      numbers[at++] = call.durationMs;
      numbers[at++] = call.coercions?.length ?? 0;
    }
  };
}
