import { describe, expect, it } from 'vitest';
import { keelToolName, TOOL_NAME_PATTERN } from './tool-name';

describe('keelToolName', () => {
  it('keeps a valid name and joins a prefix with _', () => {
    expect(keelToolName('search')).toBe('search');
    expect(keelToolName('search', 'github')).toBe('github_search');
  });

  it('makes any name valid, deterministically, and keeps names that differ apart', () => {
    const dotted = keelToolName('docs.search');
    const underscored = keelToolName('docs_search');
    expect(dotted).toMatch(TOOL_NAME_PATTERN);
    expect(dotted).toMatch(/^docs_search_[0-9a-f]{8}$/);
    expect(dotted).toBe(keelToolName('docs.search'));
    expect(dotted).not.toBe(underscored);
    for (const name of ['', 'a b', 'über', '😀'.repeat(40), 'x'.repeat(200), '../../etc/passwd', 'a\nb']) {
      expect(keelToolName(name, 'srv')).toMatch(TOOL_NAME_PATTERN);
    }
  });

  it('cuts a long name to 64 characters with a fingerprint of the whole name', () => {
    const long = keelToolName('x'.repeat(100));
    expect(long).toHaveLength(64);
    expect(long).not.toBe(keelToolName(`${'x'.repeat(99)}y`));
  });
});
