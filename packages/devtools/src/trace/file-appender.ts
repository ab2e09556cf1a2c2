import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** Whole lines are written in chunks of at most this many bytes, one `O_APPEND` write each. */
const CHUNK = 1 << 20;
/** The file is closed after this long without a write (so a file replaced meanwhile is opened anew). */
const IDLE_CLOSE_MS = 1000;
const NEWLINE = 0x0a;

/** Appends text to one file, one write at a time (in call order). */
export interface FileAppender {
  /** Appends `text` (whole lines) after every earlier append; rejects with the file system's error. */
  append(text: string): Promise<void>;
  /**
   * Appends `text` now, synchronously: for the process's `exit`, when nothing asynchronous runs
   * any more. Throws the file system's error.
   */
  appendNow(text: string): void;
  /** Settles when every append made so far has settled (never rejects). */
  idle(): Promise<void>;
}

/** One appender per file in this process: traces of several agents to one file never interleave. */
const appenders = new Map<string, FileAppender>();

/** Splits encoded lines into chunks of whole lines, each at most {@link CHUNK} bytes (a longer line is a chunk of its own). */
function chunksOf(bytes: Buffer): Buffer[] {
  if (bytes.length <= CHUNK) return [bytes];
  const chunks: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.lastIndexOf(NEWLINE, Math.min(bytes.length, start + CHUNK) - 1) + 1;
    if (end <= start) end = bytes.indexOf(NEWLINE, start) + 1 || bytes.length;
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}

/** Whether a file of `size` bytes whose last byte is `last` is empty or ends with a newline (else its last line was cut short). */
const endsWhole = (size: number, last: Buffer, read: number) => size === 0 || (read === 1 && last[0] === NEWLINE);

/**
 * The appender of `path`. The file is opened once (`O_APPEND`) and kept open while it is written
 * to; each chunk is one write of whole lines, so the lines of other processes appending to the
 * same file land between lines, never inside one. The file's folder is made on the first append.
 * A line cut short earlier (a process killed in a write, a disk that filled up mid-write) is ended
 * with a newline before the next line is written, so it stays one unreadable line of its own and
 * never swallows the next event.
 */
export function fileAppender(path: string): FileAppender {
  const absolute = resolve(path);
  const existing = appenders.get(absolute);
  if (existing) return existing;
  let handle: FileHandle | undefined;
  /** Whether the file may end inside a line: checked on opening, set by a write that failed partway. */
  let torn = false;
  let closer: NodeJS.Timeout | undefined;
  let tail: Promise<void> = Promise.resolve();

  const opened = async (): Promise<FileHandle> => {
    if (handle) return handle;
    await mkdir(dirname(absolute), { recursive: true });
    const file = await open(absolute, 'a+');
    try {
      const { size } = await file.stat();
      const last = Buffer.alloc(1);
      torn = !endsWhole(size, last, size === 0 ? 0 : (await file.read(last, 0, 1, size - 1)).bytesRead);
    } catch (error) {
      await file.close();
      throw error;
    }
    handle = file;
    return file;
  };

  const closeLater = () => {
    clearTimeout(closer);
    closer = setTimeout(() => {
      const file = handle;
      handle = undefined;
      tail = tail.then(() => file?.close()).then(
        () => undefined,
        () => undefined,
      );
    }, IDLE_CLOSE_MS);
    closer.unref();
  };

  /** Lines as bytes, after a newline that ends a line cut short before them. */
  const encode = (text: string) => Buffer.from(torn ? `\n${text}` : text, 'utf8');

  const appender: FileAppender = {
    append(text) {
      const written = tail.then(async () => {
        clearTimeout(closer);
        const file = await opened();
        let sent = 0;
        try {
          for (const chunk of chunksOf(encode(text))) {
            let offset = 0;
            while (offset < chunk.length) {
              const { bytesWritten } = await file.write(chunk, offset, chunk.length - offset);
              offset += bytesWritten;
              sent += bytesWritten;
            }
          }
          torn = false;
        } catch (error) {
          // Bytes of a line went out before the failure: the file now ends inside it.
          if (sent > 0) torn = true;
          throw error;
        } finally {
          closeLater();
        }
      });
      tail = written.then(
        () => undefined,
        () => undefined,
      );
      return written;
    },
    appendNow(text) {
      if (!handle) mkdirSync(dirname(absolute), { recursive: true });
      const fd = handle?.fd ?? openSync(absolute, 'a+');
      try {
        if (!handle) {
          const { size } = fstatSync(fd);
          const last = Buffer.alloc(1);
          torn = !endsWhole(size, last, size === 0 ? 0 : readSync(fd, last, 0, 1, size - 1));
        }
        const bytes = encode(text);
        let offset = 0;
        try {
          while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
          torn = false;
        } catch (error) {
          if (offset > 0) torn = true;
          throw error;
        }
      } finally {
        if (!handle) closeSync(fd);
      }
    },
    idle: () => tail,
  };
  appenders.set(absolute, appender);
  return appender;
}
