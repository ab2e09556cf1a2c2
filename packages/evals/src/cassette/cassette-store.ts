import { CassetteError } from '../errors/cassette-error';
import { canonicalText, type JsonObject } from './canonical-request';
import { updateCassetteFile } from './cassette-file';
import { CASSETTE_VERSION, type CassetteData, type CassetteInteraction } from './cassette-format';
import { closestDifference } from './closest-recording';
import { markFreshStart, takeFreshStart } from './fresh-start';

/** `generate` or `stream`. */
export type CallKind = CassetteInteraction['call'];

const keyOf = (call: CallKind, request: JsonObject) => `${call} ${canonicalText(request)}`;

/**
 * The interactions of one cassette: those loaded from its file, answered in order (identical
 * requests replay in the order they were recorded, each once), and those recorded since, written
 * to the file one save at a time.
 */
export class CassetteStore {
  private readonly queues = new Map<string, CassetteInteraction[]>();
  private readonly recordedTimes = new Map<string, number>();
  private readonly unsaved: CassetteInteraction[] = [];
  private saving: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly loaded: CassetteData | undefined,
    private readonly fresh: boolean,
  ) {
    if (fresh) markFreshStart(path);
    for (const interaction of loaded?.interactions ?? []) {
      const key = keyOf(interaction.call, interaction.request);
      const queue = this.queues.get(key) ?? [];
      queue.push(interaction);
      this.queues.set(key, queue);
      this.recordedTimes.set(key, (this.recordedTimes.get(key) ?? 0) + 1);
    }
  }

  /** The next unanswered recording of this request, taken; `undefined` when none is left. */
  take(call: CallKind, request: JsonObject): CassetteInteraction | undefined {
    return this.queues.get(keyOf(call, request))?.shift();
  }

  /** The error for a request this cassette cannot answer, naming where it differs from the closest recording. */
  miss(mode: 'replay' | 'auto', call: CallKind, request: JsonObject): CassetteError {
    const recorded = this.recordedTimes.get(keyOf(call, request));
    if (recorded !== undefined) return new CassetteError({ problem: 'unrecorded', path: this.path, mode, call, exhausted: { recorded } });
    const recordings = (this.loaded?.interactions ?? []).map((interaction, index) => ({ index, call: interaction.call, request: interaction.request }));
    const difference = closestDifference(recordings, call, request);
    return new CassetteError({ problem: 'unrecorded', path: this.path, mode, call, ...(difference ? { difference } : {}) });
  }

  /**
   * Adds a recording and writes the file: under its lock, what the file holds now (another
   * process may have added to it; nothing, at the first write after a `record` cassette was made) followed
   * by the recordings not yet written. Writes run one at a time; the promise settles once this
   * recording is on disk.
   */
  record(interaction: CassetteInteraction): Promise<void> {
    this.unsaved.push(interaction);
    const save = this.saving.then(() => this.save());
    this.saving = save.catch(() => undefined);
    return save;
  }

  private async save(): Promise<void> {
    if (this.unsaved.length === 0) return;
    const batch = [...this.unsaved];
    // `record` starts the file afresh at the first write after it was made, whichever recorder of this process makes it.
    let startedAfresh = false;
    const startsAfresh = () => (startedAfresh = this.fresh && takeFreshStart(this.path));
    try {
      await updateCassetteFile(this.path, startsAfresh, (current) => ({ keelCassette: CASSETTE_VERSION, interactions: [...(current?.interactions ?? []), ...batch] }));
    } catch (error) {
      if (startedAfresh) markFreshStart(this.path);
      throw error;
    }
    this.unsaved.splice(0, batch.length);
  }
}
