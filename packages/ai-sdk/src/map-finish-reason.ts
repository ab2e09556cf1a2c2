import type { FinishReason } from '@keel/provider';

/**
 * Maps the spec's finish reason (`{ unified, raw }`; a bare string from older models too):
 * `stop`, `length` (kept distinct: the output is truncated), `content-filter`, `tool-calls`,
 * `error`, `other`; a raw `refusal` (Anthropic's stop reason) is `refusal`. Anything else is `other`.
 */
export function mapFinishReason(finishReason: unknown): FinishReason {
  const unified = typeof finishReason === 'string' ? finishReason : typeof finishReason === 'object' && finishReason !== null ? (finishReason as { unified?: unknown }).unified : undefined;
  if (rawFinishReason(finishReason) === 'refusal') return 'refusal';
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

/** The raw stop reason of the spec's finish reason (`{ unified, raw }`), for `refuseContextWindowStop`. */
export function rawFinishReason(finishReason: unknown): unknown {
  return typeof finishReason === 'object' && finishReason !== null ? (finishReason as { raw?: unknown }).raw : undefined;
}
