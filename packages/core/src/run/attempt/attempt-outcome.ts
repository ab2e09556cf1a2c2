import type { GateVerdict } from '@keel/reliability';
import type { ModelResponse } from '@keel/provider';
import type { FallbackValue } from '../output/output-fallback';

/** How a logical call ended, short of failing the run. */
export type AttemptOutcome<TValue> =
  | { readonly type: 'accepted'; readonly response: ModelResponse | undefined; readonly verdict: GateVerdict<TValue> | undefined; readonly attempts: number }
  | { readonly type: 'fallback'; readonly fallback: FallbackValue }
  | { readonly type: 'stopped'; readonly kind: string; readonly attempts: number };
