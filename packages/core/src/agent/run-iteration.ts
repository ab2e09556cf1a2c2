import { AbortedError } from '@keel/reliability';
import type { JournalEntry } from '../run/journal/journal-entry';
import type { RunGate, RunState, RunStep } from '../run/journal/run-step';
import type { RunResult } from '../contracts/run-result';

/** A step handed to the reader, and the run waiting for the reader to ask for the next one. */
interface Handed {
  readonly step: RunStep;
  readonly goOn: () => void;
}

/**
 * A run taken step by step (`agent.iter()`): each `next()` lets the run take its next step and
 * gives what it added to the journal and the state after it. Between two reads the run waits, so
 * a reader can inspect it, save its journal (`journal`: every entry written so far, those of a
 * step that failed or was aborted midway included; any such journal continues with
 * `agent.iter({ journal })`), or stop it by leaving the loop (`break`, `return()`): the run then
 * ends with an `AbortedError`, running nothing more. `result` settles with the run's result or
 * error. A durable agent's runs are durable here too (continue one with `recover(runId)`).
 * @example
 * const iteration = agent.iter('Refund A-1?');
 * for await (const step of iteration) if (step.state.step === 2) break; // stopped after step 2
 * const saved = JSON.stringify(iteration.journal);
 * const result = await agent.iter({ journal: JSON.parse(saved) }).result; // the same result, each tool call once
 */
export class RunIteration<T> implements AsyncIterableIterator<RunStep> {
  readonly #result: Promise<RunResult<T>>;
  /** Set once `result` was asked for: the run no longer waits between steps. */
  #draining = false;
  /** The step the run waits at, not yet given to the reader. */
  #waiting: Handed | undefined;
  /** The step the reader has: the run goes on from it at the next read. */
  #given: Handed | undefined;
  #reader: ((step: IteratorResult<RunStep>) => void) | undefined;
  #readerFailed: ((error: unknown) => void) | undefined;
  #ended: { readonly error?: unknown } | undefined;
  readonly #stop: AbortController;
  /** Every entry the run wrote, and those written since the last step was handed over. */
  readonly #journal: JournalEntry[] = [];
  #sinceStep: JournalEntry[] = [];
  /** The reads asked for so far: a read begins once the one before it was answered. */
  #reads: Promise<unknown> = Promise.resolve();

  /** @internal Use `agent.iter()`. */
  constructor(start: (gate: RunGate, signal: AbortSignal) => Promise<RunResult<T>>) {
    const stop = new AbortController();
    this.#stop = stop;
    const gate: RunGate = {
      observe: (entries) => {
        this.#journal.push(...entries);
        this.#sinceStep.push(...entries);
      },
      step: (state) => this.#gate(this.#stepOf(state)),
    };
    this.#result = start(gate, stop.signal).then(
      (result) => {
        this.#end({});
        return result;
      },
      (error: unknown) => {
        this.#end({ error });
        throw error;
      },
    );
    // A reader that only iterates still hears the error from `next()`: `result` must not report it unhandled.
    this.#result.catch(() => undefined);
  }

  /** The run's journal so far: every entry written, in order (a copy). Plain JSON: save it, and continue it with `agent.iter({ journal })`. */
  get journal(): readonly JournalEntry[] {
    return this.#journal.slice();
  }

  /** The step the run has just taken: the entries written since the step before, and the state after it. */
  #stepOf(state: RunState): RunStep {
    const entries = this.#sinceStep;
    this.#sinceStep = [];
    return { entries, state };
  }

  /**
   * Resolves with the run's result, or rejects with its error (`AbortedError` after a stop). Asking
   * for it lets the run go on to its end without waiting between steps (steps not read are not kept).
   */
  get result(): Promise<RunResult<T>> {
    if (!this.#draining) {
      this.#draining = true;
      const waiting = this.#waiting ?? this.#given;
      this.#waiting = undefined;
      this.#given = undefined;
      waiting?.goOn();
    }
    return this.#result;
  }

  #gate(step: RunStep): Promise<void> {
    const { signal } = this.#stop;
    if (signal.aborted) return Promise.reject(AbortedError.fromSignal(signal));
    if (this.#draining) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(AbortedError.fromSignal(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting = {
        step,
        goOn: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.#deliver();
    });
  }

  #end(ended: { readonly error?: unknown }): void {
    this.#ended = ended;
    this.#deliver();
  }

  /** Hands the waiting reader the step the run waits at, or the run's end. */
  #deliver(): void {
    const reader = this.#reader;
    const failed = this.#readerFailed;
    if (!reader || !failed) return;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      this.#given = waiting;
      this.#reader = undefined;
      this.#readerFailed = undefined;
      reader({ done: false, value: waiting.step });
      return;
    }
    if (!this.#ended) return;
    this.#reader = undefined;
    this.#readerFailed = undefined;
    if ('error' in this.#ended && !this.#stop.signal.aborted) failed(this.#ended.error);
    else reader({ done: true, value: undefined });
  }

  /**
   * Lets the run take its next step; resolves with it, or `done` once the run ended (rejects with
   * the run's error). Reads made at once are answered in order, each with its own step.
   */
  next(): Promise<IteratorResult<RunStep>> {
    const read = this.#reads.then(() => this.#read());
    this.#reads = read.catch(() => undefined);
    return read;
  }

  #read(): Promise<IteratorResult<RunStep>> {
    const given = this.#given;
    this.#given = undefined;
    return new Promise<IteratorResult<RunStep>>((resolve, reject) => {
      this.#reader = resolve;
      this.#readerFailed = reject;
      given?.goOn();
      this.#deliver();
    });
  }

  /** Stops the run where it waits: it runs nothing more and ends with an `AbortedError`. */
  return(): Promise<IteratorResult<RunStep>> {
    if (!this.#ended) this.#stop.abort(new DOMException('the run was stopped between two steps (agent.iter())', 'AbortError'));
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
