import { type FinishReason, isContextWindowStop } from '@keel/core/internal';
import { AiSdkProviderError } from './ai-sdk-provider-error';

/**
 * Maps the spec's finish reason (`{ unified, raw }`; a bare string from older models too):
 * `stop`, `length` (kept distinct: the output is truncated), `content-filter`, `tool-calls`,
 * `error`, `other`; a raw `refusal` (Anthropic's stop reason) is `refusal`. Anything else is `other`.
 */
export function mapFinishReason(finishReason: unknown): FinishReason {
  const unified = typeof finishReason === 'string' ? finishReason : typeof finishReason === 'object' && finishReason !== null ? (finishReason as { unified?: unknown }).unified : undefined;
  const raw = typeof finishReason === 'object' && finishReason !== null ? (finishReason as { raw?: unknown }).raw : undefined;
  if (raw === 'refusal') return 'refusal';
  switch (unified) {
    case 'stop':
    case 'length':
    case 'content-filter':
    case 'tool-calls':
    case 'error':
    case 'other':
      return unified;
    default:
      return 'other';
  }
}

/**
 * A model that stopped because the conversation filled its context window (a raw stop reason such
 * as Anthropic's `model_context_window_exceeded`) did not answer: a `context-overflow` error, never
 * a cut answer to continue.
 */
export function refuseContextWindowStop(finishReason: unknown, provider: string): void {
  const raw = typeof finishReason === 'object' && finishReason !== null ? (finishReason as { raw?: unknown }).raw : undefined;
  if (isContextWindowStop(raw)) {
    throw new AiSdkProviderError({ message: `${provider}: the model stopped at its context window (${String(raw)}, context-overflow): the conversation no longer fits`, errorKind: 'context-overflow', provider });
  }
}
