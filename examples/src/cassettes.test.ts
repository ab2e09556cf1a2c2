import { describe, expect, it } from 'vitest';
import { runCassettes } from './cassettes';

describe('the cassettes example (offline)', () => {
  it('replays the recorded run with the same value, attempts and usage, and names the message a changed prompt differs in', async () => {
    const lines: string[] = [];
    const { recorded, replayed, changed } = await runCassettes(undefined, (line) => lines.push(line));
    expect(replayed.value).toEqual(recorded.value);
    expect(replayed.usage).toEqual(recorded.usage);
    expect(replayed.attempts.map((attempt) => attempt.errorKind)).toEqual(['schema-fail', 'ok']);
    expect(lines[1]).toMatch(/^replayed offline: \{"summary":.*"refund":1000\}, 2 calls, \d+ tokens$/);
    expect(changed).toContain('first differs at messages[0] (user)');
  });
});
