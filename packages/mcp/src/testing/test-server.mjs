// A small MCP server for the tests, written with the SDK's server API. The same tools run over
// stdio (stdio-server.mjs, a child process) and Streamable HTTP (http-server.ts, on 127.0.0.1).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/**
 * Makes the test server. `log` receives what the server saw: `call <tool> <arguments JSON>`,
 * `cancelled <tool>`; `crash` ends the server mid-call (stdio: the process exits).
 */
export function createTestServer({ log, crash }) {
  const server = new McpServer({ name: 'keel-test', version: '1.0.0' });
  const record = (name, args) => log.push(`call ${name} ${JSON.stringify(args)}`);

  server.registerTool(
    'add',
    { description: 'Adds two whole numbers.', inputSchema: { a: z.number().int(), b: z.number().int() } },
    async (args) => {
      record('add', args);
      return { content: [{ type: 'text', text: String(args.a + args.b) }] };
    },
  );
  server.registerTool(
    'env',
    { description: 'The value of an environment variable of the server process.', inputSchema: { name: z.string() } },
    async (args) => ({ content: [{ type: 'text', text: process.env[args.name] ?? '(unset)' }] }),
  );
  server.registerTool('pid', { description: 'The server process id.' }, async () => ({ content: [{ type: 'text', text: String(process.pid) }] }));
  server.registerTool('log', { description: 'What the server saw so far.' }, async () => ({ content: [{ type: 'text', text: JSON.stringify(log) }] }));
  server.registerTool(
    'fail',
    { description: 'Always fails.', inputSchema: { reason: z.string() } },
    async (args) => {
      record('fail', args);
      return { isError: true, content: [{ type: 'text', text: `could not do it: ${args.reason}` }] };
    },
  );
  server.registerTool('crash', { description: 'Ends the server while answering.' }, async () => {
    log.push('call crash {}');
    crash();
    return new Promise(() => {});
  });
  server.registerTool(
    'slow',
    { description: 'Waits, honouring cancellation.', inputSchema: { ms: z.number().int() } },
    (args, extra) =>
      new Promise((resolve) => {
        record('slow', args);
        const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: 'done' }] }), args.ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          log.push('cancelled slow');
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
      }),
  );
  server.registerTool(
    'weather',
    {
      description: 'Weather with structured content.',
      inputSchema: { city: z.string() },
      outputSchema: { city: z.string(), celsius: z.number() },
    },
    async (args) => {
      record('weather', args);
      const structuredContent = { city: args.city, celsius: 21 };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  server.registerTool('media', { description: 'Returns every kind of content.' }, async () => ({
    content: [
      { type: 'text', text: 'a chart follows' },
      { type: 'image', data: PIXEL, mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'the notes' } },
      { type: 'resource', resource: { uri: 'file:///data.bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' } },
      { type: 'resource_link', uri: 'file:///report.pdf', name: 'report', mimeType: 'application/pdf', description: 'the full report' },
    ],
    structuredContent: { rows: 3 },
  }));
  server.registerTool(
    'code',
    { description: 'Checks a code whose pattern a backtracking engine takes exponential time on.', inputSchema: { code: z.string().regex(/^(a+)+$/) } },
    async (args) => {
      record('code', args);
      return { content: [{ type: 'text', text: `code ${args.code} accepted` }] };
    },
  );
  let extra;
  server.registerTool('enable_extra', { description: 'Adds the tool extra (the tool list changes).' }, async () => {
    log.push('call enable_extra {}');
    extra ??= server.registerTool('extra', { description: 'Appears later.', inputSchema: { word: z.string() } }, async (args) => {
      record('extra', args);
      return { content: [{ type: 'text', text: `extra: ${args.word}` }] };
    });
    return { content: [{ type: 'text', text: 'extra enabled' }] };
  });
  server.registerTool('disable_extra', { description: 'Removes the tool extra.' }, async () => {
    log.push('call disable_extra {}');
    extra?.remove();
    extra = undefined;
    return { content: [{ type: 'text', text: 'extra removed' }] };
  });
  return server;
}
