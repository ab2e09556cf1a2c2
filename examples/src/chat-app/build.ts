import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Where the page's bundle goes: one static file (examples/dist is not committed). */
export const PAGE_BUNDLE = fileURLToPath(new URL('../../dist/chat-app/page.js', import.meta.url));

/** Bundles the chat page (React, `useChat`, the AI SDK's client) into one static JS file for the browser. */
export async function buildChatPage(outfile: string = PAGE_BUNDLE): Promise<string> {
  await mkdir(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL('page.tsx', import.meta.url))],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) console.log(`built ${await buildChatPage()}`);
