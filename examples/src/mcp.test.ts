import { describe, expect, it } from 'vitest';
import { notesAgent, notesAgentWithApproval } from './mcp';

describe('the MCP example', () => {
  it('re-asks the bad limit with the server schema and runs the corrected search once', async () => {
    const result = await notesAgent();
    expect(result.text).toContain('embargo');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'notes_search_notes', arguments: { query: 'launch', limit: 3 }, isError: false });
    expect(JSON.parse(result.toolCalls[0]?.output ?? '{}').notes).toHaveLength(2);
    expect(result.usage.modelCalls).toBe(3);
  });

  it('suspends before a note is added, and adds it once approved', async () => {
    const { suspended, resumed } = await notesAgentWithApproval();
    expect(suspended.status).toBe('suspended');
    expect(suspended.pendingApprovals).toMatchObject([{ toolName: 'notes_add_note', arguments: { title: 'Launch date' } }]);
    expect(resumed.status).toBe('complete');
    expect(resumed.toolCalls.at(-1)).toMatchObject({ toolName: 'notes_add_note', output: 'Added note 4.', isError: false });
  });
});
