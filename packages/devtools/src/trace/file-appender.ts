import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** Whole lines are written in chunks of at most this many characters, one append each. */
const CHUNK = 1 << 20;

/** Appends text to one file, one write at a time (in call order). */
export interface FileAppender {
  /** Appends `text` (whole lines) after every earlier append; rejects with the file system's error. */
  append(text: string): Promise<void>;
  /** Settles when every append made so far has settled (never rejects). */
  idle(): Promise<void>;
}

/** One appender per file in this process: traces of several agents to one file never interleave. */
const appenders = new Map<string, FileAppender>();

/** Splits text made of lines into chunks of whole lines, each at most {@link CHUNK} characters (a longer line is a chunk of its own). */
function chunksOf(text: string): string[] {
  if (text.length <= CHUNK) return [text];
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.lastIndexOf('\n', Math.min(text.length, start + CHUNK) - 1) + 1;
    if (end <= start) end = text.indexOf('\n', start) + 1 || text.length;
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}

/**
 * The appender of `path`. Each chunk is one `O_APPEND` write of whole lines, so the lines of
 * other processes appending to the same file land between lines, never inside one. The file's
 * folder is made on the first append.
 */
export function fileAppender(path: string): FileAppender {
  const absolute = resolve(path);
  const existing = appenders.get(absolute);
  if (existing) return existing;
  let tail: Promise<void> = mkdir(dirname(absolute), { recursive: true }).then(
    () => undefined,
    () => undefined,
  );
  const appender: FileAppender = {
    append(text) {
      const written = tail.then(async () => {
        for (const chunk of chunksOf(text)) await appendFile(absolute, chunk, { encoding: 'utf8', flag: 'a' });
      });
      tail = written.then(
        () => undefined,
        () => undefined,
      );
      return written;
    },
    idle: () => tail,
  };
  appenders.set(absolute, appender);
  return appender;
}
