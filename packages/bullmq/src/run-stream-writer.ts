import { type RunStreamPart, STREAM_MAX_PARTS, STREAM_TTL_SECONDS } from './run-stream';

/** The part of ioredis a worker writes a run's stream with. */
export interface StreamWriter {
  xadd(...args: (string | number)[]): Promise<unknown>;
  expire(key: string, seconds: number): Promise<unknown>;
}

/** Writes one job's parts, in order, to its stream. */
export interface RunStreamWriter {
  /** Adds a part; a failed write is dropped. */
  write(part: RunStreamPart<unknown>): void;
  /** Adds the last part, waits for every write, and lets the stream expire. */
  end(part: RunStreamPart<unknown>): Promise<void>;
}

/** Writes a job's parts, in order, to the stream at `key`; `end` waits for every write. */
export function runStreamWriter(client: StreamWriter, key: string): RunStreamWriter {
  let last: Promise<unknown> = Promise.resolve();
  const write = (part: RunStreamPart<unknown>): void => {
    // One connection keeps commands in order: the writes are pipelined, never awaited one by one.
    last = client.xadd(key, 'MAXLEN', '~', STREAM_MAX_PARTS, '*', 'part', JSON.stringify(part)).catch(() => undefined);
  };
  const end = async (part: RunStreamPart<unknown>): Promise<void> => {
    write(part);
    await last;
    await client.expire(key, STREAM_TTL_SECONDS).catch(() => undefined);
  };
  return { write, end };
}
