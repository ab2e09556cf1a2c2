import type { AgentStreamPart } from '../contracts/stream-part';

/**
 * The parts of a stream with the text it may still take back held until its attempt is accepted:
 * from step `holdFrom` on (1: every step; `Infinity`: none), `text-delta` parts wait for the turn's first `tool-call`, its `output`, `step-end`
 * or `result` (the attempt was accepted) and are dropped at a `retry` that discards them. With
 * `holdPartials`, `partial-output` parts are held the same way and dropped at a `retry` with
 * `discardPartialOutput`, so a reader that cannot take a partial back never sees a completed
 * field change. Readers that cannot take text back (a UI message, a text stream) read these
 * parts, so a rejected answer's text never reaches them.
 */
export async function* keptParts<T>(parts: AsyncIterable<AgentStreamPart<T>>, holdFrom: number, holdPartials = false): AsyncGenerator<AgentStreamPart<T>> {
  let held: AgentStreamPart<T>[] = [];
  for await (const part of parts) {
    if ((part.type === 'text-delta' && part.step >= holdFrom) || (part.type === 'partial-output' && holdPartials)) {
      held.push(part);
      continue;
    }
    if (part.type === 'retry') held = held.filter((kept) => !takenBack(kept, part));
    if (part.type === 'tool-call' || part.type === 'output' || part.type === 'step-end' || part.type === 'result') {
      yield* held;
      held = [];
    }
    yield part;
  }
}

/** Whether a `retry` part takes back a held part: its attempt's text or partials, where it says so. */
function takenBack<T>(kept: AgentStreamPart<T>, retry: Extract<AgentStreamPart<T>, { type: 'retry' }>): boolean {
  if (kept.type === 'text-delta') return retry.discardStreamedText && kept.step === retry.step && kept.attempt === retry.attempt;
  if (kept.type === 'partial-output') return retry.discardPartialOutput && kept.step === retry.step && kept.attempt === retry.attempt;
  return false;
}
