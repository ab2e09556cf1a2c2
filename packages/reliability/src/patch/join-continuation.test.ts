import { describe, expect, it } from 'vitest';
import { joinContinuation } from './join-continuation';

const full = JSON.stringify({ items: Array.from({ length: 30 }, (_, index) => ({ sku: `SKU-${index}`, name: `Item number ${index}`, price: index + 0.5 })) }, null, 2);

describe('joining a continuation', () => {
  it('joins a continuation that repeats nothing as written', () => {
    const cut = 400;
    expect(joinContinuation(full.slice(0, cut), full.slice(cut), true)).toEqual({ ok: true, text: full, repeated: 0 });
  });

  it('drops a long repeat of the end of the cut output', () => {
    const cut = 400;
    const joined = joinContinuation(full.slice(0, cut), full.slice(cut - 37), true);
    expect(joined).toEqual({ ok: true, text: full, repeated: 37 });
  });

  it('drops a continuation that starts over with the whole cut output', () => {
    const joined = joinContinuation(full.slice(0, 700), full, true);
    expect(joined).toEqual({ ok: true, text: full, repeated: 700 });
  });

  it('keeps a short overlap as written: a doubled letter cut in the middle is not a repeat', () => {
    const text = '{"name": "TEE", "price": 11}';
    expect(joinContinuation(text.slice(0, 12), text.slice(12), true)).toEqual({ ok: true, text, repeated: 0 });
    expect(joinContinuation(text.slice(0, 26), text.slice(26), true)).toEqual({ ok: true, text, repeated: 0 });
  });

  it('refuses a join that reads as two different values', () => {
    // The partial ends with what the continuation starts with (9 characters): dropped or kept, both are JSON.
    const partial = '{"note": "aaaaaaaaa';
    const continuation = 'aaaaaaaaa"}';
    const joined = joinContinuation(partial, continuation, true);
    expect(joined.ok).toBe(false);
  });

  it('drops the longest repeat of a continuation that was itself cut', () => {
    const cut = 400;
    const joined = joinContinuation(full.slice(0, cut), full.slice(cut - 20, 900), false);
    expect(joined).toEqual({ ok: true, text: full.slice(0, 900), repeated: 20 });
  });

  it('handles an empty continuation and an empty partial', () => {
    expect(joinContinuation('{"a": 1', '', true)).toEqual({ ok: true, text: '{"a": 1', repeated: 0 });
    expect(joinContinuation('', '{"a": 1}', true)).toEqual({ ok: true, text: '{"a": 1}', repeated: 0 });
  });
});

describe('short repeats', () => {
  it('drops a short repeat only when the text as written does not read', () => {
    const text = '{"items": [\n  {"a": 1},\n  {"b": 2}\n]}';
    const cut = text.indexOf('},') + 2;
    // The model starts again at "}," (2 characters): as written the join breaks, without the repeat it reads.
    expect(joinContinuation(text.slice(0, cut), text.slice(cut - 2), true)).toEqual({ ok: true, text, repeated: 2 });
  });

  it('refuses short repeats that read as different values', () => {
    // "1" + "11}" joins as 111 or 11; "1" + "1}" reads as written (11), the short repeat is not weighed.
    expect(joinContinuation('{"n": 1', '1}', true)).toEqual({ ok: true, text: '{"n": 11}', repeated: 0 });
  });
});

describe('a continuation that starts over', () => {
  it('takes a whole answer of its own when no join reads (a provider that ignores the cut output)', () => {
    const answer = JSON.stringify({ items: [1, 2, 3] });
    const partial = '{\n  "items": [1, 2';
    expect(joinContinuation(partial, answer, true)).toEqual({ ok: true, text: answer, repeated: 0, restarted: true });
  });

  it('never takes a fragment that happens to read as JSON', () => {
    // The rest of an array: `3]}` does not open as the cut output does.
    expect(joinContinuation('{"a": [1, 2', '"x"', true).ok).toBe(true);
    expect(joinContinuation('{"a": [1, 2', '"x"', true)).not.toHaveProperty('restarted');
  });
});
