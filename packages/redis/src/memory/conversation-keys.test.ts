import { describe, expect, it } from 'vitest';
import { conversationKeys, conversationTag, normalizePrefix } from './conversation-keys';

describe('conversationKeys', () => {
  it('uses a safe id as it is, so keys stay readable', () => {
    expect(conversationKeys('keel:', 'customer-42')).toEqual({
      order: 'keel:memory:{customer-42}:order',
      exchanges: 'keel:memory:{customer-42}:exchanges',
      lease: 'keel:memory:{customer-42}:lease',
      fence: 'keel:memory:{customer-42}:fence',
    });
  });

  it('hashes ids that would make an empty or broken hash tag, and ids that look hashed', () => {
    for (const id of ['', '}support', '{support}', 'a{b', '#abc', 'x'.repeat(201)]) {
      const tag = conversationTag(id);
      expect(tag).toMatch(/^#[0-9a-f]{64}$/);
    }
    expect(conversationTag('#abc')).not.toBe('#abc');
    expect(new Set(['', '}', '{', '{}', '}{'].map(conversationTag)).size).toBe(5);
  });

  it('adds the separator a prefix lacks and refuses braces', () => {
    expect(normalizePrefix('support', 'x')).toBe('support:');
    expect(normalizePrefix('support:', 'x')).toBe('support:');
    expect(normalizePrefix('', 'x')).toBe('');
    expect(() => normalizePrefix('{t}', 'x')).toThrow(/braces/);
  });
});
