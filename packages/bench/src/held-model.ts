import type { ModelRequest, ModelResponse } from '@keel/core';
import type { ModelProviderV1 } from '@keel/provider';
import { finalTurn, toolTurn } from './zero-latency-model';

/**
 * The zero-latency model's two turns, except that while `hold()` is on, the final turn waits until
 * `release()`: runs can be stopped all at once at their second model call, to weigh what each holds.
 */
export function heldModel(): ModelProviderV1 & { hold(): void; held(): number; release(): void } {
  let holding = false;
  let waiting: (() => void)[] = [];
  return {
    specificationVersion: 'v1',
    name: 'held',
    generate: async (request: ModelRequest): Promise<ModelResponse> => {
      if (request.messages.length <= 1) return toolTurn;
      if (holding) await new Promise<void>((resolve) => waiting.push(resolve));
      return finalTurn;
    },
    hold: () => void (holding = true),
    held: () => waiting.length,
    release: () => {
      holding = false;
      const resolve = waiting;
      waiting = [];
      for (const next of resolve) next();
    },
  };
}
