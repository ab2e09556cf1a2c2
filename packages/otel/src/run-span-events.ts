import type { AgentBuilder } from '@keel/core';
import type { TelemetryScope } from './run-spans';
import { addSpanEvent } from './span-event';

/**
 * Events about the run as a whole as span events on the run span: context compactions, the
 * output's fallback, downgrade and repairs, and listeners that threw.
 */
export function runSpanEvents<TOutput>(builder: AgentBuilder<TOutput>, scope: TelemetryScope): AgentBuilder<TOutput> {
  const { runs, recordContent } = scope;
  return builder
    .on('context.compacted', (event) => {
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(spans.run, 'context.compacted', { reason: event.reason, tier: event.tier, tokens_before: event.tokensBefore, tokens_after: event.tokensAfter }, { 'keel.step': event.step });
    })
    .on('output.fallback-used', (event) => {
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(spans.run, 'output.fallback-used', { tier: event.tier, reason: recordContent ? event.reason : undefined });
    })
    .on('output.mode-downgraded', (event) => {
      const spans = runs.get(event.runId);
      // The provider's message may quote the schema: recorded with content only.
      if (spans) addSpanEvent(spans.run, 'output.mode-downgraded', { from: event.from, to: event.to, strict_tools: event.strictTools, reason: event.reason, detail: recordContent ? event.detail : undefined }, { 'keel.step': event.step });
    })
    .on('output.repaired', (event) => {
      // After the step's call has ended: the accepted answer is the run's.
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(spans.run, 'output.repaired', { repairs: event.repairs, coercions: event.coercions, coerced_paths: recordContent ? event.coercedPaths : undefined });
    })
    .on('listener.error', (event) => {
      const spans = runs.get(event.runId);
      if (spans) addSpanEvent(spans.run, 'listener.error', { event: event.event, message: recordContent ? event.message : undefined }, { 'error.type': event.errorName });
    });
}
