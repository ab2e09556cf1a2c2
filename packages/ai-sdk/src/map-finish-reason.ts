import type { FinishReason } from '@keel/core/internal';

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
