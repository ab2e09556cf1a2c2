import type { AgentStreamPart } from './stream-part';

/**
 * The parts of a stream with the text it may still take back held until its attempt is accepted:
 * from step `holdFrom` on (1: every step; `Infinity`: none), `text-delta` parts wait for the turn's first `tool-call`, its `output`, `step-end`
 * or `result` (the attempt was accepted) and are dropped at a `retry` (it was not). Readers that
 * cannot take text back (a UI message, a text stream) read these parts, so a rejected answer's
 * text never reaches them.
 */
export async function* keptParts<T>(parts: AsyncIterable<AgentStreamPart<T>>, holdFrom: number): AsyncGenerator<AgentStreamPart<T>> {
  let held: AgentStreamPart<T>[] = [];
  for await (const part of parts) {
    if (part.type === 'text-delta' && part.step >= holdFrom) {
      held.push(part);
      continue;
    }
    if (part.type === 'retry') held = [];
    if (part.type === 'tool-call' || part.type === 'output' || part.type === 'step-end' || part.type === 'result') {
      yield* held;
      held = [];
    }
    yield part;
  }
}
