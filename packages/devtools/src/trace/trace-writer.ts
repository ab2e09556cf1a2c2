import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { DevtoolsError } from '../errors/devtools-error';

/** Settings of a {@link TraceWriter}. */
export interface TraceWriterOptions {
  readonly path: string;
  /** Lines held at most while the file cannot be written; beyond, newer ones are dropped and counted. */
  readonly maxPending: number;
  /** Milliseconds between a first line and its write. Default {@link FLUSH_DELAY_MS}. */
  readonly delayMs?: number;
}

/** How long a line waits at most before it is written (the viewer shows a run this late at worst). */
export const FLUSH_DELAY_MS = 1000;
/** A batch this long is written at once, without waiting for the timer. */
export const FLUSH_LINES = 512;
export const FLUSH_BYTES = 1 << 20;
/** Characters held at most while the file cannot be written, whatever the number of lines. */
const MAX_PENDING_CHARS = 64 << 20;

/** Writers holding lines: what each holds is written synchronously when the process exits. */
const waiting = new Set<TraceWriter>();
let exitHooked = false;

function writeAllAtExit(): void {
  for (const writer of waiting) writer.writeAtExit();
}

/** Appends `text` to `path` in one write (the file made, with its folder, when missing); a file that ends inside a line (a crash) gets a newline first. */
function appendWhole(path: string, text: string): void {
  let file: number;
  try {
    file = openSync(path, 'a+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true });
    file = openSync(path, 'a+');
  }
  try {
    const { size } = fstatSync(file);
    const last = Buffer.alloc(1);
    const cut = size > 0 && readSync(file, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
    const bytes = Buffer.from(cut ? `\n${text}` : text, 'utf8');
    for (let written = 0; written < bytes.length; ) written += writeSync(file, bytes, written);
  } finally {
    closeSync(file);
  }
}

/** A write's settlement, handed to the one listener call that claimed it (core reports its rejection as `listener.error`). */
interface Claim {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: DevtoolsError): void;
}

/**
 * The lines of one trace on their way to its file, in OpenTelemetry's batch-processor pattern, on
 * the run's own thread: each line is pushed to a bounded buffer; the buffer is appended to the file
 * in one synchronous write a second after its first line (a timer that never keeps the process
 * alive), at once when it holds {@link FLUSH_LINES} lines or {@link FLUSH_BYTES} characters, on
 * `flush()`, and when the process exits. A write that fails keeps its lines for the next one; while
 * the file cannot be written, lines beyond `maxPending` are dropped, and the count of them is
 * written to the file as a `{"trace":{"dropped":…}}` line once a write succeeds.
 */
export class TraceWriter {
  readonly #options: TraceWriterOptions;
  #lines: string[] = [];
  #chars = 0;
  #dropped = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Whether the last write failed: writes then wait for the timer instead of being tried at every line. */
  #failing = false;
  #claim: Claim | undefined;
  #claimed = false;

  constructor(options: TraceWriterOptions) {
    this.#options = options;
  }

  /**
   * Adds a line (ending in a newline). Returns, to the first line of each batch, a promise that
   * rejects with a {@link DevtoolsError} (`trace-write`) if the batch's write fails: the listener that pushed it
   * returns it, so the failure is its agent's `listener.error` event. `claims` false for a line
   * whose failure must not be reported (a `listener.error`'s own: it would report itself again).
   */
  push(line: string, claims = true): Promise<void> | undefined {
    if (this.#lines.length >= this.#options.maxPending || this.#chars + line.length > MAX_PENDING_CHARS) this.#dropped += 1;
    else {
      this.#lines.push(line);
      this.#chars += line.length;
    }
    const claim = this.#claimed || !claims ? undefined : this.#newClaim();
    if (!this.#failing && (this.#lines.length >= Math.min(FLUSH_LINES, this.#options.maxPending) || this.#chars >= FLUSH_BYTES)) this.write();
    else this.#schedule();
    return claim?.promise;
  }

  /** Writes what waits now, synchronously; a failure goes to the batch's claim (the lines wait for the next write). */
  write(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const claim = this.#claim;
    this.#claim = undefined;
    this.#claimed = false;
    if (this.#lines.length === 0 && this.#dropped === 0) {
      claim?.resolve();
      return;
    }
    const { path, maxPending } = this.#options;
    const dropped = this.#dropped > 0 ? `${JSON.stringify({ trace: { dropped: this.#dropped, at: Date.now(), reason: `more than ${maxPending} line(s) waited while the file could not be written` } })}\n` : '';
    try {
      appendWhole(path, dropped + this.#lines.join(''));
    } catch (error) {
      this.#failing = true;
      this.#schedule();
      const reason = error instanceof Error ? error.message : String(error);
      const lost = this.#dropped > 0 ? `, ${this.#dropped} dropped so far` : '';
      claim?.reject(new DevtoolsError({ problem: 'trace-write', path, lostEvents: this.#dropped, message: `The trace ${path} could not be written (${reason}): ${this.#lines.length} line(s) wait for the next write${lost}`, cause: error }));
      return;
    }
    this.#failing = false;
    this.#lines = [];
    this.#chars = 0;
    this.#dropped = 0;
    waiting.delete(this);
    claim?.resolve();
  }

  /** The process is exiting: one last synchronous write; what it cannot write is said on stderr (no run is there to report it to). */
  writeAtExit(): void {
    this.write();
    if (this.#lines.length + this.#dropped === 0) return;
    writeSync(2, `keel: ${this.#lines.length + this.#dropped} trace line(s) for ${this.#options.path} were lost at exit: the file could not be written\n`);
  }

  #newClaim(): Claim {
    let settle: Pick<Claim, 'resolve' | 'reject'> = { resolve: () => undefined, reject: () => undefined };
    const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    this.#claim = { promise, ...settle };
    this.#claimed = true;
    return this.#claim;
  }

  #schedule(): void {
    waiting.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', writeAllAtExit);
    }
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.write(), this.#options.delayMs ?? FLUSH_DELAY_MS);
    this.#timer.unref();
  }
}
