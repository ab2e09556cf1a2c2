import { keptParts } from './kept-parts';
import type { RunResult } from '../contracts/run-result';
import type { AgentStreamPart, DeepPartial, StreamSink } from '../contracts/stream-part';
import type { UIMessageChunk, UIMessageStreamOptions, UIMessageStreamResponseOptions } from './ui-message-chunk';
import { uiMessageChunks } from './ui-message-stream';
import { readableOf, uiMessageStreamResponse } from './ui-message-stream-response';

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
    /** True when shown text may still be taken back (pass-through with an output schema, rules that judge answers). */
    private readonly textCanBeTakenBack = false,
    /** From this step on, a turn's text is held until it is judged (rules that read the run's history, such as the loop rules, may reject it). */
    private readonly holdFromStep = Number.POSITIVE_INFINITY,
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

  /** The parts, with text that may still be taken back held until its attempt is accepted. */
  private kept(): AsyncGenerator<AgentStreamPart<T>> {
    const iterator = this[Symbol.asyncIterator]();
    return keptParts({ [Symbol.asyncIterator]: () => iterator }, this.textCanBeTakenBack ? 1 : this.holdFromStep, this.textCanBeTakenBack);
  }

  /**
   * The answer's text as it streams, only text the run keeps: an attempt's text that may still
   * be rejected is held until it is accepted, and a rejected attempt's never comes. Reads the
   * stream (one reader at a time, like iterating it).
   */
  get textStream(): AsyncIterable<string> {
    const parts = this.kept();
    return (async function* () {
      for await (const part of parts) if (part.type === 'text-delta') yield part.text;
    })();
  }

  /**
   * With an output schema: the value as it is written (each a deep partial, not validated), and
   * last the validated value. Only partials the run keeps: where they may still be taken back
   * (pass-through), they are held until their attempt is accepted, so a field complete in one
   * value is the same in every later one. Reads the stream (one reader at a time, like iterating it).
   */
  get partialOutputStream(): AsyncIterable<DeepPartial<T>> {
    const parts = this.kept();
    return (async function* () {
      for await (const part of parts) {
        if (part.type === 'partial-output') yield part.value;
        if (part.type === 'output') yield part.value as DeepPartial<T>;
      }
    })();
  }

  /**
   * The run as a UI message stream, the AI SDK 6 UI protocol that `useChat` and `readUIMessageStream`
   * read: text parts, tool calls with their results, approval requests of a suspended run, step
   * boundaries, `finish`, or `error` / `abort`. A re-asked answer leaves no text in the message
   * (text that may still be rejected is held until accepted); a re-asked tool call shows the
   * arguments it ran with. Reads the stream (one reader at a time); cancelling it cancels the run.
   */
  toUIMessageStream(options: UIMessageStreamOptions = {}): ReadableStream<UIMessageChunk<T>> {
    return readableOf(uiMessageChunks(this.kept(), options), (reason) => this.cancel(reason));
  }

  /**
   * `toUIMessageStream()` as an HTTP response: server-sent events with the headers `useChat`
   * expects. Return it from a route handler; a client that disconnects cancels the run.
   */
  toUIMessageStreamResponse(options: UIMessageStreamResponseOptions = {}): Response {
    return uiMessageStreamResponse(uiMessageChunks(this.kept(), options), (reason) => this.cancel(reason), options);
  }

  /** The final text, after the run ends. */
  async text(): Promise<string> {
    return (await this.result).text;
  }
}
