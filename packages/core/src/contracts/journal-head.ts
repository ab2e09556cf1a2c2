/** Where a journal's chain stands: the next entry's number and the `mac` it chains on ('' before the first, or when unchained). */
export interface JournalHead {
  readonly seq: number;
  readonly mac: string;
}

/** The head of an empty journal. */
export const EMPTY_HEAD: JournalHead = Object.freeze({ seq: 0, mac: '' });
