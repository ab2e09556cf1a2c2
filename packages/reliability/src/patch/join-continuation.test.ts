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

describe('repeated content is kept unless the overlap is proven', () => {
  const song = ['Row, row, row your boat', 'Row, row, row your boat', 'Gently down the stream', 'Merrily, merrily, merrily, merrily'];
  const text = JSON.stringify({ lines: song }, null, 2);
  // Cut right after the first line: the second, equal line is what the continuation begins with.
  const cut = text.indexOf('"Row', text.indexOf('"Row') + 1);

  it('a continuation cut again never drops a repeated line that may be the model writing it twice', () => {
    const again = text.indexOf('"Gently');
    const joined = joinContinuation(text.slice(0, cut), text.slice(cut, again), false);
    expect(joined.ok).toBe(false);
    // Never the song with three lines.
    expect(joined.text).toBe(text.slice(0, again));
    expect(joined).not.toHaveProperty('readings');
  });

  it('a finished continuation that reads with and without the repeat is refused, both readings given for the schema to settle', () => {
    const joined = joinContinuation(text.slice(0, cut), text.slice(cut), true);
    expect(joined.ok).toBe(false);
    if (joined.ok) return;
    expect(joined.text).toBe(text);
    expect(joined.readings?.map((reading) => (JSON.parse(reading.text) as { lines: string[] }).lines.length)).toEqual([4, 3]);
  });

  it('a repeat that leaves the text as written broken is proven and dropped, cut again or finished', () => {
    const items = JSON.stringify({ items: ['alpha', 'beta', 'gamma', 'delta'] }, null, 2);
    const at = items.indexOf('"beta') + 3;
    const lineStart = items.lastIndexOf('\n', at) + 1;
    // The model starts again at the start of the cut line: as written, "be  \"beta" does not read.
    expect(joinContinuation(items.slice(0, at), items.slice(lineStart, items.indexOf('"delta')), false)).toEqual({ ok: true, text: items.slice(0, items.indexOf('"delta')), repeated: at - lineStart });
    expect(joinContinuation(items.slice(0, at), items.slice(lineStart), true)).toEqual({ ok: true, text: items, repeated: at - lineStart });
  });
});

describe('a fragment is never taken as the whole', () => {
  const cut = '{"id":1,"children":[{"id":2,"children":[]},';

  it('a complete value that continues the cut output is a continuation, whatever it looks like alone', () => {
    const joined = joinContinuation(cut, ' {"id":3,"children":[]}', true);
    expect(joined).toEqual({ ok: true, text: `${cut} {"id":3,"children":[]}`, repeated: 0 });
  });

  it('nor when the seam lacks a comma: only a continuation that repeats the whole cut output started over', () => {
    const noComma = '{"id":1,"children":[{"id":2,"children":[]}';
    expect(joinContinuation(noComma, ' {"id":3,"children":[]}', true)).toEqual({ ok: true, text: `${noComma} {"id":3,"children":[]}`, repeated: 0 });
    // Spaces between tokens aside, a reply that rewrites the whole cut output did start over.
    const whole = '{ "id": 1, "children": [ {"id": 2, "children": []}, {"id": 3, "children": []} ] }';
    expect(joinContinuation(noComma, whole, true)).toEqual({ ok: true, text: whole, repeated: 0, restarted: true });
  });

  it('a restart that does not repeat the cut output is not proven', () => {
    expect(joinContinuation('{\n  "items": [1, 2', '{"items": [4, 5]}', true)).toMatchObject({ ok: true, text: '{\n  "items": [1, 2{"items": [4, 5]}', repeated: 0 });
  });
});
