import { loopRulesMinSteps } from '@keel/reliability/internal';
import type { RunConfig } from '../run/state/run-config';
import { AgentStream } from './agent-stream';
import type { RunOptions, RunResult, SuspendedRunResult } from '../contracts/run-result';
import type { StreamSink } from '../contracts/stream-part';

/** How a streamed run shows text: `buffer` holds an output schema's text until it validates. */
export type TextMode = 'buffer' | 'pass-through';

/** The options of `stream()` and `resumeStream()` besides the run's. */
export interface StreamOptions {
  /** `buffer` (default) holds an output schema's text until it validates; `pass-through` shows it as it comes. */
  readonly textMode?: TextMode;
  /**
   * Called when the run suspends, and awaited before the stream's `result` part (and the UI
   * stream's approval requests and `finish`): keep the state there, so a client that answers at
   * once finds it. A throw is the stream's error.
   */
  readonly onSuspended?: (result: SuspendedRunResult) => unknown;
}

/** What `openStream` needs of the agent for one run. */
export interface StreamedRun<T> {
  /** The caller's options, already checked (a bad option is the stream's error, made by the caller). */
  readonly options: RunOptions & StreamOptions;
  /** Starts the run with the stream's own signal and sink: a first run or a resumed one alike. */
  readonly start: (signal: AbortSignal, sink: StreamSink) => Promise<RunResult<T>>;
  /** Whether shown text may still be taken back in this mode (see `AgentStream`). */
  readonly takenBack: (mode: TextMode) => boolean;
  /** Whether the kept readers hold the text of a step from this step on (rules that judge the run's history may reject it). */
  readonly holdFromStep?: number;
}

/**
 * The stream of one run, `agent.stream()` and `agent.resumeStream()` alike: the stream owns a
 * controller (so `cancel()` and a `break` abort the run) to which the caller's signal is forwarded.
 */
export function openStream<T>(run: StreamedRun<T>): AgentStream<T> {
  const { textMode = 'buffer', signal, onSuspended } = run.options;
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  const started = (sink: StreamSink) => run.start(controller.signal, sink).finally(() => signal?.removeEventListener('abort', forward));
  const start = onSuspended
    ? async (sink: StreamSink) => {
        const result = await started(sink);
        if (result.status === 'suspended') await onSuspended(result);
        return result;
      }
    : started;
  return new AgentStream<T>(start, textMode, (reason) => controller.abort(reason), run.takenBack(textMode), run.holdFromStep);
}

/** A stream whose run cannot start (a bad option, say): its error comes through `result` and the iterator, as `run()` rejects. */
export function failedStream<T>(error: unknown): AgentStream<T> {
  return new AgentStream<T>(() => Promise.reject(error), 'buffer', () => undefined);
}

/**
 * What every stream of an agent holds back: shown text the gate may still reject. Every attempt's
 * text with an output schema in pass-through mode; without one, a text answer that the user's
 * rules judge; and from the first step the loop rules can judge, each turn's text until it is.
 */
export function streamHolds<T>(config: RunConfig): Pick<StreamedRun<T>, 'takenBack' | 'holdFromStep'> {
  const loopSteps = loopRulesMinSteps(config.stepRules);
  const takenBack = (mode: TextMode) => (config.output ? mode === 'pass-through' : config.reAskRules.before.length > 0);
  return loopSteps === undefined ? { takenBack } : { takenBack, holdFromStep: loopSteps + 1 };
}
