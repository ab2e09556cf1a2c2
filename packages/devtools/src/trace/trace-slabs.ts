/**
 * Slabs: shared memory one thread fills with entries and another reads, with no JSON and no
 * copy on the writing side. A slab has 8 bytes of header (the bytes published so far, and
 * whether the slab is full), then entries: a kind and a byte length (one 8-byte slot each), then
 * the entry's fields, each an 8-byte slot (numbers as float64) or a string (a length slot, then
 * its UTF-16 code units, padded to a whole slot). An entry is written before the published
 * length covers it, so a reader never sees half an entry. Written and read in this one file.
 */
const PUBLISHED = 0;
const SEALED = 1;
const HEADER_SLOTS = 1;
const ENTRY_HEADER_SLOTS = 2;
/** A string slot's length for an absent string. */
const ABSENT = -1;
/** A name's slot for `known[0]`; `known[i]` is `NAMED - i` (below every string length and {@link ABSENT}). */
const NAMED = -2;
/** Slabs kept to fill again. */
const MAX_SPARES = 2;
/** Slots of a slab (4 MiB) unless one entry needs more. */
const SLAB_SLOTS = 1 << 19;

/** What an entry holds. */
export const EntryKind = {
  /** A JSON line made already (an event's). */
  line: 1,
  /** A run's record, made into its line by the reader. */
  record: 2,
} as const;

/** Writes entries field by field straight into the current slab; a full slab is sealed and the next handed over with `onSlab`. */
export class SlabWriter {
  private buffer: SharedArrayBuffer;
  private numbers: Float64Array;
  private units: Uint16Array;
  private control: Int32Array;
  /** The slot the current entry starts at, and the next slot to write. */
  private start: number;
  private cursor: number;
  /** Slabs read to their end, to fill again. */
  private readonly spares: SharedArrayBuffer[] = [];

  constructor(private readonly onSlab: (slab: SharedArrayBuffer) => void) {
    this.buffer = new SharedArrayBuffer(SLAB_SLOTS * 8);
    this.numbers = new Float64Array(this.buffer);
    this.units = new Uint16Array(this.buffer);
    this.control = new Int32Array(this.buffer, 0, 2);
    this.start = HEADER_SLOTS;
    this.cursor = HEADER_SLOTS;
  }

  /** The first slab, for the reader to start from. */
  get first(): SharedArrayBuffer {
    return this.buffer;
  }

  /** Starts an entry of `kind`. */
  begin(kind: number): void {
    this.cursor = this.start;
    this.room(ENTRY_HEADER_SLOTS);
    this.numbers[this.cursor] = kind;
    this.cursor += ENTRY_HEADER_SLOTS;
  }

  number(value: number): void {
    if (this.cursor === this.numbers.length) this.room(1);
    this.numbers[this.cursor++] = value;
  }

  /**
   * Reserves `count` number slots: returns where they start in {@link slots}, which the caller
   * fills at once (one call for many fields, where a call a field would cost more than the field).
   */
  reserve(count: number): number {
    if (this.cursor + count > this.numbers.length) this.room(count);
    const at = this.cursor;
    this.cursor += count;
    return at;
  }

  /** The current slab's slots, as numbers: read it after {@link reserve}, which may start a new slab. */
  get slots(): Float64Array {
    return this.numbers;
  }

  /** A string, or `undefined` (read back as `undefined`). */
  string(value: string | undefined): void {
    if (value === undefined) {
      this.number(ABSENT);
      return;
    }
    const length = value.length;
    const slots = 1 + ((length + 3) >> 2);
    if (this.cursor + slots > this.numbers.length) this.room(slots);
    this.numbers[this.cursor] = length;
    const units = this.units;
    const from = (this.cursor + 1) * 4;
    for (let index = 0; index < length; index++) units[from + index] = value.charCodeAt(index);
    this.cursor += slots;
  }

  /**
   * A name that is usually one of `known` (a kind, a finish reason): one slot holding its index
   * when it is, else the string itself (see {@link EntryReader.name}).
   */
  name(value: string | undefined, known: readonly string[]): void {
    const index = value === undefined ? -1 : known.indexOf(value);
    if (index === -1) this.string(value);
    else this.number(NAMED - index);
  }

  /** Ends the entry and publishes it. */
  end(): void {
    this.numbers[this.start + 1] = (this.cursor - this.start - ENTRY_HEADER_SLOTS) * 8;
    this.start = this.cursor;
    Atomics.store(this.control, PUBLISHED, this.cursor * 8);
  }

  /**
   * Gives back a slab the reader has read to its end, to be filled again: memory the process has
   * touched already costs less to write than new memory (a page fault every 4 KiB).
   */
  spare(slab: SharedArrayBuffer): void {
    if (this.spares.length < MAX_SPARES && slab !== this.buffer) this.spares.push(slab);
  }

  /** Makes room for `slots` more: when the slab is full, the entry so far moves to a new one. */
  private room(slots: number): void {
    if (this.cursor + slots <= this.numbers.length) return;
    const written = this.numbers.subarray(this.start, this.cursor);
    Atomics.store(this.control, SEALED, 1);
    const needed = HEADER_SLOTS + written.length + slots;
    const spare = this.spares.pop();
    this.buffer = spare !== undefined && spare.byteLength >= needed * 8 ? spare : new SharedArrayBuffer(Math.max(SLAB_SLOTS, 2 * needed) * 8);
    const control = new Int32Array(this.buffer, 0, 2);
    Atomics.store(control, PUBLISHED, 0);
    Atomics.store(control, SEALED, 0);
    this.numbers = new Float64Array(this.buffer);
    this.units = new Uint16Array(this.buffer);
    this.control = new Int32Array(this.buffer, 0, 2);
    this.numbers.set(written, HEADER_SLOTS);
    this.cursor = HEADER_SLOTS + written.length;
    this.start = HEADER_SLOTS;
    this.onSlab(this.buffer);
  }
}

/** Reads an entry's fields in the order they were written. */
export class EntryReader {
  private readonly numbers: Float64Array;
  private slot: number;
  private readonly end: number;

  /** Reads `slots` slots from `slot` of a slab, seen as `bytes` and as `numbers`. */
  constructor(
    private readonly bytes: Buffer,
    numbers: Float64Array,
    slot: number,
    slots: number,
  ) {
    this.numbers = numbers;
    this.slot = slot;
    this.end = slot + slots;
  }

  number(): number {
    if (this.slot >= this.end) throw new RangeError('a trace entry ended early');
    return this.numbers[this.slot++] as number;
  }

  /** A number that may be absent (written as NaN). */
  optional(): number | undefined {
    const value = this.number();
    return Number.isNaN(value) ? undefined : value;
  }

  string(): string | undefined {
    return this.text(this.number());
  }

  /** What {@link SlabWriter.name} wrote with the same `known`. */
  name(known: readonly string[]): string | undefined {
    const slot = this.number();
    if (slot > NAMED) return this.text(slot);
    const name = known[NAMED - slot];
    if (name === undefined) throw new RangeError('a trace entry names a kind it does not know');
    return name;
  }

  /** The string of `length` units from the next slot. */
  private text(length: number): string | undefined {
    if (length === ABSENT) return undefined;
    const slots = (length + 3) >> 2;
    if (!Number.isInteger(length) || length < 0 || this.slot + slots > this.end) throw new RangeError('a trace entry holds a string longer than itself');
    const from = this.slot * 8;
    this.slot += slots;
    return this.bytes.toString('utf16le', from, from + length * 2);
  }
}

/** One entry read from a slab. */
export interface SlabEntry {
  readonly kind: number;
  readonly reader: EntryReader;
}

/** Where a reader stands: the slab (numbered from 0 in the order written) and the byte in it. */
export interface SlabPosition {
  readonly slab: number;
  readonly offset: number;
}

/** Reads a queue of slabs in order, from where it last stopped. */
export class SlabReader {
  private readonly slabs: SharedArrayBuffer[];
  private slab: number;
  /** The next slot to read in the first slab. */
  private slot: number;

  /** Reads `slabs` (the first of them numbered `from.slab`) from `from`. */
  constructor(slabs: readonly SharedArrayBuffer[] = [], from: SlabPosition = { slab: 0, offset: HEADER_SLOTS * 8 }) {
    this.slabs = [...slabs];
    this.slab = from.slab;
    this.slot = Math.max(HEADER_SLOTS, from.offset / 8);
  }

  /** Slabs read to their end since the last call: the writer may fill them again once their entries are read. */
  private finished: SharedArrayBuffer[] = [];

  /** Adds the next slab (in the order they were written). */
  add(slab: SharedArrayBuffer): void {
    this.slabs.push(slab);
  }

  /** The slabs read to their end since the last call, to give back once the entries taken from them are read. */
  release(): SharedArrayBuffer[] {
    const finished = this.finished;
    this.finished = [];
    return finished;
  }

  /** Where the next entry will be read. */
  get position(): SlabPosition {
    return { slab: this.slab, offset: this.slot * 8 };
  }

  /** Every entry published since the last call, in order; a slab read to its end and sealed is let go. */
  take(): SlabEntry[] {
    const entries: SlabEntry[] = [];
    for (;;) {
      const slab = this.slabs[0];
      if (slab === undefined) return entries;
      const control = new Int32Array(slab, 0, 2);
      // The sealed flag first: a slab sealed before its length was read is read to that length.
      const sealed = Atomics.load(control, SEALED) === 1;
      const published = Atomics.load(control, PUBLISHED) / 8;
      const numbers = new Float64Array(slab);
      const bytes = Buffer.from(slab);
      while (this.slot < published) {
        const kind = numbers[this.slot] as number;
        const slots = (numbers[this.slot + 1] as number) / 8;
        entries.push({ kind, reader: new EntryReader(bytes, numbers, this.slot + ENTRY_HEADER_SLOTS, slots) });
        this.slot += ENTRY_HEADER_SLOTS + slots;
      }
      if (!sealed || this.slabs.length === 1) return entries;
      this.finished.push(slab);
      this.slabs.shift();
      this.slab++;
      this.slot = HEADER_SLOTS;
    }
  }
}
