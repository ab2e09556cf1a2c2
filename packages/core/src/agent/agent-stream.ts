import type { RunResult } from './run-result';
import type { AgentStreamPart, StreamSink } from './stream-part';

/**
 * The stream of one run: iterate it for typed parts, or await `result`. Iterating is optional;
 * parts are queued until read. The iterator throws the run's error after the parts before it.
 * Leaving the loop early (`break`, `return`, a throw) cancels the run, as `cancel()` does.
 */
export class AgentStream<T> implements AsyncIterable<AgentStreamPart<T>> {
  /** Resolves with the run's result, or rejects with its error. */
  readonly result: Promise<RunResult<T>>;
  private readonly queue: AgentStreamPart<T>[] = [];
  private wake: (() => void) | undefined;
  private done = false;
  private failure: { error: unknown } | undefined;

  /** @internal Use `agent.stream()`. */
  constructor(
    start: (sink: StreamSink) => Promise<RunResult<T>>,
    mode: StreamSink['mode'],
    private readonly abort: (reason?: unknown) => void,
  ) {
    const sink: StreamSink = { mode, push: (part) => this.enqueue(part as AgentStreamPart<T>) };
    this.result = start(sink).then(
      (result) => {
        this.enqueue({ type: 'result', result });
        this.finish();
        return result;
      },
      (error: unknown) => {
        this.failure = { error };
        this.finish();
        throw error;
      },
    );
    // The error is delivered through the iterator or `result`; never unhandled.
    this.result.catch(() => undefined);
  }

  private enqueue(part: AgentStreamPart<T>): void {
    this.queue.push(part);
    this.wake?.();
  }

  private finish(): void {
    this.done = true;
    this.wake?.();
  }

  /**
   * Iterates the parts. One stream has one reader at a time: a second iteration while one is
   * going throws at once (two loops would each get some parts, and one would wait forever).
   */
  [Symbol.asyncIterator](): AsyncIterator<AgentStreamPart<T>> {
    if (this.reading) throw new TypeError('this stream is already being iterated: one stream has one reader (iterate it once, or await stream.result)');
    this.reading = true;
    return this.parts();
  }

  private reading = false;

  private async *parts(): AsyncGenerator<AgentStreamPart<T>> {
    try {
      for (;;) {
        const part = this.queue.shift();
        if (part) {
          yield part;
          continue;
        }
        if (this.done) {
          if (this.failure) throw this.failure.error;
          return;
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
      }
    } finally {
      this.reading = false;
      if (!this.done) this.cancel();
    }
  }

  /** Cancels the run: `result` (and the iterator) reject with an abort error. */
  cancel(reason?: unknown): void {
    this.abort(reason);
  }

  /** The final text, after the run ends. */
  async text(): Promise<string> {
    return (await this.result).text;
  }
}
