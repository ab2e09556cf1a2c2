import type { Message, ModelRequest, ModelResponse } from '@keel/core';
import type { ModelProviderV1 } from '@keel/provider';
import { tokens } from '../recovery/strategies';

/** One request as the simulated vendor counted it. */
export interface CountedRequest {
  readonly request: ModelRequest;
  /** Tokens of the whole request (system prompt, tool definitions, every message), BPE-counted. */
  readonly tokens: number;
  /** Tokens of its prefix shared with the request before: read from the prompt cache. */
  readonly cacheRead: number;
}

/** A message's text as a vendor tokenizes it: text, tool calls' names and JSON arguments, tool results' ids and bodies as they stand. */
function messageText(message: Message): string {
  if (typeof message.content === 'string') return `${message.role}: ${message.content}`;
  const parts = message.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? `tool_use ${part.id} ${part.name} ${JSON.stringify(part.arguments)}` : `tool_result ${part.toolCallId} ${part.output}`));
  return `${message.role}: ${parts.join('\n')}`;
}

/** The parts of a request in the order a vendor reads (and caches) them: tools, system prompt, messages. */
function partsOf(request: ModelRequest): string[] {
  return [JSON.stringify(request.tools ?? []), request.system ?? '', ...request.messages.map(messageText)];
}

/**
 * A vendor as a long run meets it, simulated in process: it counts each request with a real BPE
 * tokenizer (o200k: tool definitions, system prompt, each message's text, tool calls and results
 * as their names, arguments and bodies), refuses one that does not fit `window` as a context-length refusal (the error
 * kind `context-overflow`, as the adapters classify "prompt is too long"), and reports usage as a
 * prompt cache would: the prefix shared with the previous request (whole parts, in the order
 * tools → system → messages) as cache reads, the rest as input. The script decides the turn.
 */
export function longRunVendor(window: number, turn: (request: ModelRequest, call: number) => ModelResponse['content']): ModelProviderV1 & { readonly counted: readonly CountedRequest[]; readonly refusals: number } {
  const counted: CountedRequest[] = [];
  let previous: string[] = [];
  let refusals = 0;
  let calls = 0;
  return {
    specificationVersion: 'v1',
    name: 'long-run-vendor',
    get counted() {
      return counted;
    },
    get refusals() {
      return refusals;
    },
    capabilities: () => ({ contextWindow: window }),
    generate: async (request: ModelRequest): Promise<ModelResponse> => {
      const parts = partsOf(request);
      const total = parts.reduce((sum, part) => sum + tokens(part), 0);
      if (total > window) {
        refusals++;
        throw Object.assign(new Error(`prompt is too long: ${total} tokens > ${window} maximum`), { errorKind: 'context-overflow', status: 400, retryable: false });
      }
      let shared = 0;
      let cacheRead = 0;
      while (shared < parts.length && shared < previous.length && parts[shared] === previous[shared]) cacheRead += tokens(parts[shared++] as string);
      previous = parts;
      counted.push({ request, tokens: total, cacheRead });
      const content = turn(request, ++calls);
      const text = content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part))).join('');
      return {
        content,
        text: content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
        finishReason: content.some((part) => part.type === 'tool-call') ? 'tool-calls' : 'stop',
        usage: { inputTokens: total - cacheRead, outputTokens: tokens(text), cacheReadTokens: cacheRead, cacheWriteTokens: 0 },
      };
    },
  };
}
