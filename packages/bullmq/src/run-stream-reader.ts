import { AbortedError } from '@keel/core';
import { isLastPart, type RunStreamPart } from './run-stream';

/** The part of ioredis a stream is read with. */
export interface StreamReader {
  xread(...args: (string | number)[]): Promise<[string, [string, string[]][]][] | null>;
  xrevrange(key: string, end: string, start: string, count: 'COUNT', n: number): Promise<[string, string[]][]>;
  disconnect(): void;
}

/** How long one read waits for new parts before checking whether the job ended without them. */
const BLOCK_MS = 500;

/** A stream entry as the worker wrote it (`part <JSON>`); anything else is an error naming the key, never skipped in silence. */
function parsePart<T>(fields: readonly string[], key: string, entryId: string): RunStreamPart<T> {
  let part: unknown;
  try {
    part = fields[0] === 'part' ? JSON.parse(String(fields[1])) : undefined;
  } catch {
    part = undefined;
  }
  if (typeof part !== 'object' || part === null || typeof (part as { type?: unknown }).type !== 'string') {
    throw new Error(`The run stream "${key}" holds an entry (${entryId}) that no Keel worker wrote`);
  }
  return part as RunStreamPart<T>;
}

/** The last part of the stream at `key`, when it ends the job (a result, or a failure no retry follows). */
export async function lastPartOf<T>(client: Pick<StreamReader, 'xrevrange'>, key: string): Promise<RunStreamPart<T> | undefined> {
  const [last] = await client.xrevrange(key, '+', '-', 'COUNT', 1);
  if (!last) return undefined;
  const part = parsePart<T>(last[1], key, last[0]);
  return isLastPart(part) ? part : undefined;
}

/**
 * How a job ended, asked when its stream has nothing new: its last part (read from the job), `undefined` while it still
 * runs, `'gone'` when the job no longer exists.
 */
export type JobEnd<T> = () => Promise<RunStreamPart<T> | 'gone' | undefined>;

/**
 * Reads the stream at `key` from its start with `reader`, part by part, until its last part; when
 * nothing new comes, `ended` says whether the job ended without one (its stream expired, or it
 * never streamed). Stops with an `AbortedError` when `signal` aborts.
 */
export async function* readRunStream<T>(reader: Pick<StreamReader, 'xread'>, key: string, ended: JobEnd<T>, signal?: AbortSignal): AsyncGenerator<RunStreamPart<T>, void> {
  let lastId = '0';
  for (;;) {
    if (signal?.aborted) throw AbortedError.fromSignal(signal);
    let answer: Awaited<ReturnType<StreamReader['xread']>>;
    try {
      answer = await reader.xread('COUNT', 100, 'BLOCK', BLOCK_MS, 'STREAMS', key, lastId);
    } catch (error) {
      if (signal?.aborted) throw AbortedError.fromSignal(signal);
      throw error;
    }
    const entries = answer?.[0]?.[1] ?? [];
    if (entries.length === 0) {
      // Nothing new: a job that ended without a last part (its stream expired, or it never streamed) ends here.
      const end = await ended();
      if (end === 'gone') return;
      if (end) {
        yield end;
        return;
      }
      continue;
    }
    for (const [entryId, fields] of entries) {
      lastId = entryId;
      const part = parsePart<T>(fields, key, entryId);
      yield part;
      if (isLastPart(part)) return;
    }
  }
}
