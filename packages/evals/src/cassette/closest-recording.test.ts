import { describe, expect, it } from 'vitest';
import type { JsonObject } from './canonical-request';
import { closestDifference } from './closest-recording';

const request = (...contents: string[]): JsonObject => ({ model: 'm', messages: contents.map((content) => ({ content, role: 'user' })) });

describe('closestDifference', () => {
  it('picks the recording sharing the most leading messages and names the first message that differs', () => {
    const recordings = [
      { index: 0, call: 'generate', request: request('a', 'b', 'c') },
      { index: 1, call: 'generate', request: request('a', 'x') },
    ];
    expect(closestDifference(recordings, 'generate', request('a', 'b', 'd'))).toEqual({ recording: 0, path: 'messages[2]', role: 'user', recorded: '{"content":"c","role":"user"}', requested: '{"content":"d","role":"user"}' });
  });

  it('says (none) where one side has no message, and quotes long values around the first difference', () => {
    expect(closestDifference([{ index: 0, call: 'generate', request: request('a') }], 'generate', request('a', 'b'))).toMatchObject({ path: 'messages[1]', recorded: '(none)' });
    const long = 'x'.repeat(500);
    const difference = closestDifference([{ index: 0, call: 'generate', request: request(`${long}1`) }], 'generate', request(`${long}2`));
    expect(difference?.recorded.startsWith('…')).toBe(true);
    expect(difference?.recorded).toContain('1');
    expect(difference?.requested).toContain('2');
  });

  it('is undefined with nothing recorded', () => {
    expect(closestDifference([], 'generate', request('a'))).toBeUndefined();
  });
});
