import type { ModelRequest } from '@keel/core';
import { decode, encode } from 'gpt-tokenizer';
import { MeaningModel } from '../independent/meaning-model';
import { tokens } from '../recovery/strategies';
import type { LargeItem } from './large-corpus';

/** What the patch feedback lists: `Paths you may set (quoted data): "a", "b".` */
const PATCH_LINE = /^Paths you may set \(quoted data\): (.*)\.$/m;

/** The value at a printed path (`items[17].price`). */
function valueAtPrinted(value: unknown, printed: string): unknown {
  let current = value;
  for (const match of printed.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    const key = match[2] === undefined ? (match[1] as string) : Number(match[2]);
    current = typeof current === 'object' && current !== null ? (current as Record<string | number, unknown>)[key] : undefined;
  }
  return current;
}

/** A reply and whether the token limit cut it. */
export interface LargeReply {
  readonly text: string;
  readonly cut: boolean;
}

/**
 * The simulated model of the large-output slice, on top of the model that reads feedback for its
 * meaning (it fixes a defect when the feedback names its path with the expected constraint):
 * - asked for a patch (the feedback lists the paths it may set), it answers with the corrected
 *   values at those paths as one JSON object, except every fourth patch request, which it answers
 *   with the full value;
 * - asked to continue (`continueFrom`), it writes the rest of the value it was writing: exactly
 *   from the cut (as an assistant prefill continues) on even items, starting again at the cut
 *   line (repeating it, as chat models asked to continue often do) on odd ones;
 * - every reply is cut at the request's `maxTokens` (o200k tokens).
 */
export class LargeModel {
  private readonly meaning: MeaningModel;
  private writing = '';
  private patchRequests = 0;
  calls = 0;

  constructor(
    readonly item: LargeItem,
    private readonly repeatsLine: boolean,
  ) {
    this.meaning = new MeaningModel(item);
  }

  /** Answers one request; `feedback` is its latest feedback text, when it carries one. */
  answer(request: Pick<ModelRequest, 'maxTokens' | 'continueFrom'>, feedback: string | undefined): LargeReply {
    this.calls++;
    const from = request.continueFrom;
    if (from !== undefined && this.writing.startsWith(from)) {
      const start = this.repeatsLine ? from.lastIndexOf('\n') + 1 : from.length;
      return this.limit(this.writing.slice(start), request.maxTokens);
    }
    const full = this.meaning.answer(feedback);
    const paths = feedback === undefined ? undefined : PATCH_LINE.exec(feedback)?.[1];
    if (paths !== undefined && ++this.patchRequests % 4 !== 0) {
      const value: unknown = JSON.parse(full);
      const keys = JSON.parse(`[${paths}]`) as string[];
      return this.limit(JSON.stringify(Object.fromEntries(keys.map((key) => [key, valueAtPrinted(value, key)]))), request.maxTokens);
    }
    this.writing = full;
    return this.limit(full, request.maxTokens);
  }

  private limit(text: string, maxTokens: number | undefined): LargeReply {
    if (maxTokens === undefined || tokens(text) <= maxTokens) return { text, cut: false };
    return { text: decode(encode(text).slice(0, maxTokens)), cut: true };
  }
}
