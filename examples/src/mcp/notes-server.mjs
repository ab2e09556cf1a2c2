// A small MCP server for the example, written with the official SDK: a team's notes, searched
// and added to over stdio. Run it on its own with `node src/mcp/notes-server.mjs`; the example
// starts it as a child process.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const notes = [
  { id: 1, title: 'Launch checklist', body: 'Freeze the pricing page on Monday; press embargo lifts Thursday 9:00 UTC.', tags: ['launch'] },
  { id: 2, title: 'Launch retro', body: 'The status page went out late; next time publish it before the announcement.', tags: ['launch', 'retro'] },
  { id: 3, title: 'Hiring plan', body: 'Two backend engineers in Q3.', tags: ['team'] },
];

const server = new McpServer({ name: 'notes', version: '1.0.0' });

server.registerTool(
  'search_notes',
  {
    description: 'Searches the team notes by words in their title, body or tags. Returns the matching notes, newest first.',
    inputSchema: { query: z.string().min(1), limit: z.number().int().min(1).max(20) },
    outputSchema: { notes: z.array(z.object({ id: z.number(), title: z.string(), body: z.string(), tags: z.array(z.string()) })) },
  },
  async ({ query, limit }) => {
    const words = query.toLowerCase().split(/\s+/);
    const found = notes
      .filter((note) => words.some((word) => `${note.title} ${note.body} ${note.tags.join(' ')}`.toLowerCase().includes(word)))
      .reverse()
      .slice(0, limit);
    // Structured content, and the same JSON as text for clients that read only text (as the spec asks).
    const structuredContent = { notes: found };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  },
);

server.registerTool(
  'add_note',
  {
    description: 'Adds a note.',
    inputSchema: { title: z.string().min(1), body: z.string(), tags: z.array(z.string()).optional() },
  },
  async ({ title, body, tags }) => {
    const note = { id: notes.length + 1, title, body, tags: tags ?? [] };
    notes.push(note);
    return { content: [{ type: 'text', text: `Added note ${note.id}.` }] };
  },
);

await server.connect(new StdioServerTransport());
