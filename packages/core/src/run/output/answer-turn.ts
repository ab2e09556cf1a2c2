import type { ModelResponse, TextPart, ToolCallPart } from '@keel/provider';

/** The raw text of a call's arguments: as the model wrote them when the provider says, else their JSON. */
function argumentsTextOf(call: ToolCallPart): string {
  if (typeof call.argumentsText === 'string') return call.argumentsText;
  try {
    return JSON.stringify(call.arguments ?? {}) ?? '{}';
  } catch {
    // Arguments JSON cannot hold (a cycle, a BigInt): text that fails to parse, fed back as such.
    return String(call.arguments);
  }
}

/**
 * Output mode `tool`: reads a turn's call of the answer tool as the final answer. A turn whose only
 * calls are to the answer tool becomes a final turn whose text is the calls' argument texts, one a
 * line (validated as any final answer: repair, coercion, feedback, stuck detection), finishing
 * `stop` (or as it finished, when cut off or refused). Several answer calls are read as a text reply
 * holding several values is: the same answer given twice is that answer, two different answers
 * are refused (`several-values`), never the first taken. A turn that also calls other tools stays a
 * tool-call turn without the answer calls: the model answers after it sees their results, and no
 * call is left without a result. Any other turn is returned as it is.
 */
export function answerTurn(response: ModelResponse, answerTool: string): ModelResponse {
  const answers: ToolCallPart[] = [];
  let others = 0;
  for (const part of response.content) {
    if (part.type !== 'tool-call') continue;
    if (part.name === answerTool) answers.push(part);
    else others++;
  }
  if (answers.length === 0) return response;
  if (others > 0) {
    const content = response.content.filter((part) => part.type !== 'tool-call' || part.name !== answerTool);
    return { ...response, content };
  }
  const text = answers.map(argumentsTextOf).join('\n');
  const part: TextPart = { type: 'text', text };
  const finishReason = response.finishReason === 'tool-calls' ? 'stop' : response.finishReason;
  return { ...response, content: [part], text, finishReason };
}
