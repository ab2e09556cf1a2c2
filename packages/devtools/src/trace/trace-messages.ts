/** What a trace sends the writing thread. */
export type ThreadMessage =
  /** A new trace: its file, its first slab and its control memory. */
  | {
      readonly type: 'open';
      readonly id: number;
      readonly path: string;
      readonly secrets: readonly string[];
      readonly control: SharedArrayBuffer;
      readonly slab: SharedArrayBuffer;
    }
  /** The trace's next slab, its last one being full. */
  | { readonly type: 'slab'; readonly id: number; readonly slab: SharedArrayBuffer }
  /** Write what the trace has published now, and answer with the failures since the last seal. */
  | { readonly type: 'seal'; readonly id: number; readonly batch: number };

/** What the writing thread sends a trace: a seal's answer, or slabs read to their end, to fill again. */
export type ThreadReply = SealedReply | { readonly type: 'spare'; readonly id: number; readonly slabs: readonly SharedArrayBuffer[] };

/** What the writing thread answers a seal with. */
export interface SealedReply {
  readonly type: 'sealed';
  readonly id: number;
  readonly batch: number;
  /** Messages of the writes that failed since the last seal. */
  readonly failures: readonly string[];
  /** Entries those failures lost. */
  readonly lost: number;
}
