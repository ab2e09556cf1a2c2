import { open } from 'node:fs/promises';
import { parseTraceLine, type TraceLine } from './parse-trace-line';

/** Bytes read from the file at a time. */
const READ_SIZE = 1 << 20;

/** What a {@link TraceFileReader} has read so far. */
export interface TraceSnapshot {
  /** The journal entries, events and notes of the file, in file order. */
  readonly lines: readonly TraceLine[];
  /** Lines that were none of those (not JSON, fields missing). */
  readonly skippedLines: number;
  /** Changes whenever something new was read or the file was replaced: the page reloads when it moves. */
  readonly version: number;
  /** Whether the file exists. */
  readonly exists: boolean;
}

/**
 * Reads a trace file as it grows: each `read()` parses only the bytes appended since the last
 * one, keeps a line that is not finished yet (no newline) for the next read, and starts over
 * when the file got shorter (truncated or replaced). A missing file reads as no lines.
 */
export class TraceFileReader {
  private offset = 0;
  private rest: Buffer = Buffer.alloc(0);
  private lines: TraceLine[] = [];
  private skippedLines = 0;
  private version = 0;
  private exists = false;
  /** The file's inode: another one means the file was replaced. */
  private inode: number | undefined;
  private reading: Promise<TraceSnapshot> | undefined;

  constructor(private readonly path: string) {}

  /** Reads what was appended; concurrent calls share one read. */
  read(): Promise<TraceSnapshot> {
    this.reading ??= this.readNew().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private snapshot(): TraceSnapshot {
    return { lines: this.lines, skippedLines: this.skippedLines, version: this.version, exists: this.exists };
  }

  private reset(): void {
    this.offset = 0;
    this.rest = Buffer.alloc(0);
    this.lines = [];
    this.skippedLines = 0;
    this.version++;
  }

  private async readNew(): Promise<TraceSnapshot> {
    let handle;
    try {
      handle = await open(this.path, 'r');
    } catch {
      if (this.exists || this.lines.length > 0) this.reset();
      this.exists = false;
      this.inode = undefined;
      return this.snapshot();
    }
    try {
      this.exists = true;
      const { size, ino } = await handle.stat();
      if (size < this.offset || (this.inode !== undefined && ino !== this.inode)) this.reset();
      this.inode = ino;
      while (this.offset < size) {
        const buffer = Buffer.alloc(Math.min(READ_SIZE, size - this.offset));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        this.take(buffer.subarray(0, bytesRead));
      }
    } finally {
      await handle.close();
    }
    return this.snapshot();
  }

  /** Parses the finished lines of `chunk` (after what was left of the last one). */
  private take(chunk: Buffer): void {
    const data = this.rest.length === 0 ? chunk : Buffer.concat([this.rest, chunk]);
    const last = data.lastIndexOf(0x0a);
    if (last === -1) {
      this.rest = data;
      return;
    }
    this.rest = Buffer.from(data.subarray(last + 1));
    const before = this.lines.length + this.skippedLines;
    for (const text of data.subarray(0, last).toString('utf8').split('\n')) {
      if (text.trim() === '') continue;
      const line = parseTraceLine(text);
      if (line) this.lines.push(line);
      else this.skippedLines++;
    }
    if (this.lines.length + this.skippedLines !== before) this.version++;
  }
}
