import { describe, expect, it } from 'vitest';
import { notesAgent } from './mcp';

describe('the MCP example', () => {
  it('re-asks the bad limit with the server schema and runs the corrected search once', async () => {
    const result = await notesAgent();
    expect(result.text).toContain('embargo');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ name: 'notes_search_notes', arguments: { query: 'launch', limit: 3 }, isError: false });
    expect(JSON.parse(result.toolCalls[0]?.output ?? '{}').notes).toHaveLength(2);
    expect(result.usage.modelCalls).toBe(3);
  });
});
