import type { AgentBuilder } from '@keel/core';

const dim = (text: string) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);
const indent = (text: string, prefix: string) => text.split('\n').map((line) => `${prefix}${line}`).join('\n');

/** Prints a readable trace of a run: steps, model calls, tool calls, feedback, retries, usage. */
export function withTrace<T>(builder: AgentBuilder<T>, log: (line: string) => void = console.log): AgentBuilder<T> {
  return builder
    .on('run.start', (event) => log(`▶ run ${event.runId.slice(0, 8)} on ${event.provider}/${event.model}`))
    .on('step.start', (event) => log(`  step ${event.step}`))
    .on('model.request', (event) =>
      log(`    → model call (attempt ${event.attempt}${event.purpose === 'tool-retry' ? ', tool re-ask' : ''}): ${event.messageCount} messages, ${event.ephemeralCount} ephemeral, tool choice ${event.toolChoice}`),
    )
    .on('model.response', (event) =>
      log(`    ← ${event.finishReason}, ${event.inputTokens} in / ${event.outputTokens} out tokens${event.costUsd === undefined ? '' : `, $${event.costUsd.toFixed(6)}`} ${dim(`(${event.latencyMs.toFixed(1)} ms)`)}`),
    )
    .on('model.error', (event) => log(`    ✗ ${event.errorKind}: ${event.message}`))
    .on('validation.failed', (event) => log(`    ✗ output rejected (${event.stage}): ${event.message}`))
    .on('reliability.retry', (event) => {
      log(`    ↻ retry after attempt ${event.attempt} (${event.kind}, ${event.errorKind}${event.delayMs ? `, waiting ${event.delayMs} ms` : ''})`);
      if (event.feedback) log(indent(event.feedback, '      │ '));
    })
    .on('reliability.recovered', (event) => log(`    ✓ recovered on attempt ${event.attempt} via ${event.via} after ${event.priorFailures} failure(s)`))
    .on('reliability.fail-fast', (event) => log(`    ■ fail fast: ${event.kind} (${event.errorKind})`))
    .on('tool.retry', (event) => {
      log(`    ↻ re-ask ${event.retry} for ${event.tool} arguments, feedback sent:`);
      log(indent(event.feedback, '      │ '));
    })
    .on('tool.validation', (event) => log(`    ✓ ${event.tool} arguments: ${event.outcome} (${event.retryCount} re-ask${event.retryCount === 1 ? '' : 's'})`))
    .on('tool.end', (event) => log(`    ⚙ ${event.tool} ${event.isError ? `failed (${event.errorCode})` : 'ran'} ${dim(`(${event.durationMs.toFixed(1)} ms)`)}`))
    .on('output.fallback-used', (event) => log(`    ⚠ fallback tier used: ${event.tier}`))
    .on('run.end', (event) =>
      log(`■ run ${event.status}: ${event.steps} step(s), ${event.modelCalls} model call(s), ${event.inputTokens} in / ${event.outputTokens} out tokens ${dim(`(${event.durationMs.toFixed(1)} ms)`)}`),
    );
}
