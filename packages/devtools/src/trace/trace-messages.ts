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
  | { readonly type: 'seal'; readonly id: number; readonly batch: number }
  /** The trace is no longer used: write what it has published, let it go, and answer `closed`. */
  | { readonly type: 'close'; readonly id: number };

/** What the writing thread sends a trace: a seal's answer, slabs read to their end to fill again, or that it let the trace go. */
export type ThreadReply = SealedReply | { readonly type: 'spare'; readonly id: number; readonly slabs: readonly SharedArrayBuffer[] } | ThreadClosed;

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

/** What the writing thread answers a close with: it holds nothing of the trace any more. */
export interface ThreadClosed {
  readonly type: 'closed';
  readonly id: number;
}
