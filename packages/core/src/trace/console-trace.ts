import type { AgentBuilder, Extension } from '../agent/agent';

/** Options of {@link consoleTrace}. */
export interface ConsoleTraceOptions {
  /** Where each line goes. Default `console.log`. */
  readonly write?: (line: string) => void;
  /** ANSI colours (timings dimmed, failures red, recoveries green). Default `false`. */
  readonly colors?: boolean;
  /** Durations and latencies in milliseconds. Default `true`; `false` gives output that is the same on every run. */
  readonly timings?: boolean;
}

const ansi = (code: number) => (text: string) => `\x1b[${code}m${text}\x1b[0m`;
const plain = (text: string) => text;
const indent = (text: string, prefix: string) => text.split('\n').map((line) => `${prefix}${line}`).join('\n');

/**
 * A readable trace of every run, line by line: steps, model calls (attempt and purpose), tool
 * calls, the feedback sent, retries, recoveries and usage. Runtime-neutral: it writes through a
 * function and uses colours only when asked.
 */
export function consoleTrace(options: ConsoleTraceOptions = {}): Extension {
  const write = options.write ?? ((line: string) => globalThis.console.log(line));
  const dim = options.colors ? ansi(2) : plain;
  const red = options.colors ? ansi(31) : plain;
  const green = options.colors ? ansi(32) : plain;
  const timings = options.timings ?? true;
  const ms = (value: number) => (timings ? ` ${dim(`(${value.toFixed(1)} ms)`)}` : '');

  return <TOutput>(builder: AgentBuilder<TOutput>): AgentBuilder<TOutput> =>
    builder
      .on('run.start', (event) => write(`▶ run ${event.runId.slice(0, 8)} on ${event.provider}/${event.model}`))
      .on('step.start', (event) => write(`  step ${event.step}`))
      .on('model.request', (event) =>
        write(`    → model call (attempt ${event.attempt}${event.purpose === 'tool-re-ask' ? ', tool re-ask' : ''}): ${event.messageCount} messages, ${event.ephemeralCount} ephemeral, tool choice ${event.toolChoice}`),
      )
      .on('model.response', (event) =>
        write(`    ← ${event.finishReason}, ${event.inputTokens} in / ${event.outputTokens} out tokens${event.costUsd === undefined ? '' : `, $${event.costUsd.toFixed(6)}`}${ms(event.latencyMs)}`),
      )
      .on('model.error', (event) => write(red(`    ✗ ${event.errorKind}: ${event.message}`)))
      .on('validation.failed', (event) => write(red(`    ✗ output rejected (${event.stage}): ${event.message}`)))
      .on('reliability.wait', (event) => write(`    … waiting ${event.delayMs} ms before attempt ${event.attempt} (${event.rule})`))
      .on('reliability.retry', (event) => {
        write(`    ↻ retry after attempt ${event.attempt} (${event.rule}, ${event.errorKind}${event.delayMs ? `, waiting ${event.delayMs} ms` : ''})`);
        if (event.feedback) write(indent(event.feedback, '      │ '));
      })
      .on('reliability.recovered', (event) => write(green(`    ✓ recovered on attempt ${event.attempt} via ${event.via} after ${event.priorFailures} failure(s)`)))
      .on('reliability.fail-fast', (event) => write(red(`    ■ fail fast: ${event.rule} (${event.errorKind})`)))
      .on('tool.re-ask', (event) => {
        write(`    ↻ re-ask ${event.reAsk} for ${event.toolName} arguments, feedback sent:`);
        write(indent(event.feedback, '      │ '));
      })
      .on('tool.validation', (event) => write(`    ✓ ${event.toolName} arguments: ${event.outcome} (${event.retryCount} re-ask${event.retryCount === 1 ? '' : 's'})`))
      .on('tool.end', (event) => write(`    ⚙ ${event.toolName} ${event.isError ? red(`failed (${event.errorCode})`) : 'ran'}${ms(event.durationMs)}`))
      .on('output.repaired', (event) => write(`    ✓ output repaired locally: ${event.repairs || `${event.coercions} coercion(s)`}`))
      .on('output.fallback-used', (event) => write(`    ⚠ fallback tier used: ${event.tier}`))
      .on('run.end', (event) =>
        write(`■ run ${event.status}: ${event.steps} step(s), ${event.modelCalls} model call(s), ${event.inputTokens} in / ${event.outputTokens} out tokens${ms(event.durationMs)}`),
      );
}
