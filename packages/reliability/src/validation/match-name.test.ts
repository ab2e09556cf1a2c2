import { describe, expect, it } from 'vitest';
import { matchName } from './match-name';

describe('matchName: the one name a text stands for', () => {
  it.each([
    ['Refund', ['refund', 'reject'], 'refund'],
    [' Large ', ['small', 'large'], 'large'],
    [' MW ', ['MW', 'mW'], 'MW'],
    [' low ', ['low', 'LOW'], 'low'],
    [' x ', ['X', ' x'], ' x'],
    ['draft', ['Draft '], 'Draft '],
  ])('reads %j among %j as %j', (text, names, expected) => {
    expect(matchName(text, names)).toBe(expected);
  });

  it.each([
    ['draft ', ['draft', 'Draft ']],
    ['b ', ['b', ' b']],
    ['Low', ['low', 'LOW']],
    ['mw', ['MW', 'mW']],
    ['Mw', ['MW', 'mW']],
    ['kw', ['kW']],
    ['x ', [' x', 'X ']],
  ])('names nothing for %j among %j: two readings, or case that carries meaning', (text, names) => {
    expect(matchName(text, names)).toBeUndefined();
  });
});
