import { describe, expect, it } from 'vitest';
import { settleReadings } from './settle-readings';

const readings = [
  { text: '[1, 1]', repeated: 0 },
  { text: '[1]', repeated: 3 },
];
const judge = (text: string) => JSON.parse(text) as number[];

describe('settling a join that reads several ways', () => {
  it('takes the one reading the judge accepts, sync or async', async () => {
    expect(settleReadings(readings, judge, (value) => value.length === 2)).toEqual({ reading: readings[0], verdict: [1, 1] });
    await expect(settleReadings(readings, async (text) => judge(text), (value) => value.length === 1)).resolves.toEqual({ reading: readings[1], verdict: [1] });
  });

  it('settles nothing when none or several are accepted', () => {
    expect(settleReadings(readings, judge, () => true)).toBeUndefined();
    expect(settleReadings(readings, judge, () => false)).toBeUndefined();
  });
});
