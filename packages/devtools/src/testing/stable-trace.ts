import { readFileSync, writeFileSync } from 'node:fs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** 2026-01-01 12:00:00 UTC. */
const EPOCH = 1_767_268_800_000;
/** Fields that hold a time since the epoch, and fields that hold a duration. */
const TIMES = new Set(['at', 'timestamp', 'startedAt', 'suspendedAt', 'expiresAt']);
const DURATIONS: Readonly<Record<string, number>> = { latencyMs: 412, durationMs: 3, elapsedMs: 412 };

/** `value` with every time and duration in it made fixed (`index`: the line's, so times still go forward). */
function stabilise(value: unknown, index: number): unknown {
  if (Array.isArray(value)) return value.map((item) => stabilise(item, index));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      if (typeof field === 'number' && TIMES.has(key)) return [key, EPOCH + index * 7];
      if (typeof field === 'number' && key in DURATIONS) return [key, DURATIONS[key] as number];
      return [key, stabilise(field, index)];
    }),
  );
}

/**
 * A copy of a trace with what changes on every recording made fixed (ids, times, latencies and
 * durations), so screenshots of it are the same from one test run to the next.
 */
export function writeStableTrace(from: string, to: string): void {
  const ids = new Map<string, string>();
  const stableId = (id: string) => {
    let stable = ids.get(id);
    if (!stable) ids.set(id, (stable = `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, '0')}`));
    return stable;
  };
  const lines = readFileSync(from, 'utf8').replace(UUID, stableId).split('\n').filter((line) => line !== '');
  const stable = lines.map((line, index) => {
    const fixed = stabilise(JSON.parse(line), index) as Record<string, unknown>;
    // An entry's elapsed time is the run's so far: it grows with the lines.
    if (typeof fixed.elapsedMs === 'number') fixed.elapsedMs = index * 7;
    return JSON.stringify(fixed);
  });
  writeFileSync(to, `${stable.join('\n')}\n`);
}
