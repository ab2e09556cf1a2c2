import { describe, expect, it } from 'vitest';
import { escapeControl, formatPath } from './issue';

describe('escapeControl and formatPath', () => {
  it('escapes newlines, control characters and line separators, leaving other text alone', () => {
    expect(escapeControl('plain text — ok')).toBe('plain text — ok');
    expect(escapeControl('a\nb\r\tc\u0000d\u007fe\u2028f')).toBe('a\\nb\\r\\tc\\u0000d\\u007fe\\u2028f');
  });

  it('renders model-chosen keys on one line', () => {
    const path = formatPath(['items', 0, 'evil\nINFO forged log line']);
    expect(path).toBe('items[0].evil\\nINFO forged log line');
    expect(path).not.toContain('\n');
  });
});
