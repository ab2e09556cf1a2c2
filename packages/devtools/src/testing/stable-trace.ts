import { readFileSync, writeFileSync } from 'node:fs';
import { isObject } from '../view/fields';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** 2026-01-01 12:00:00 UTC. */
const EPOCH = 1_767_268_800_000;

/** A run record's times made fixed: its start, and the latencies and durations of its entries. */
function stabiliseRecord(record: Record<string, unknown>): void {
  if (typeof record.startedAt === 'number') record.startedAt = EPOCH;
  for (const field of ['attempts', 'steps', 'toolCalls']) {
    const entries = record[field];
    if (!Array.isArray(entries)) continue;
    record[field] = entries.map((entry: unknown) => {
      if (!isObject(entry)) return entry;
      const fixed: Record<string, unknown> = { ...entry };
      if (typeof fixed.latencyMs === 'number') fixed.latencyMs = 412;
      if (typeof fixed.durationMs === 'number') fixed.durationMs = 3;
      return fixed;
    });
  }
}

/**
 * A copy of a trace with what changes on every recording made fixed (ids, timestamps, latencies
 * and durations), so screenshots of it are the same from one test run to the next.
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
    const { event, payload } = JSON.parse(line) as { event: string; payload: Record<string, unknown> };
    const fixed: Record<string, unknown> = { ...payload, timestamp: EPOCH + index * 7 };
    if (typeof fixed.latencyMs === 'number') fixed.latencyMs = 412;
    if (typeof fixed.durationMs === 'number') fixed.durationMs = event === 'run.end' || event === 'run.record' ? 1840 : 3;
    if (event === 'run.record') stabiliseRecord(fixed);
    return JSON.stringify({ event, payload: fixed });
  });
  writeFileSync(to, `${stable.join('\n')}\n`);
}
