import { Session } from 'node:inspector/promises';

/**
 * The URL of every script loaded so far, by the script id heap snapshots give in their locations
 * (the debugger reports each loaded script once it is enabled).
 */
export async function scriptUrls(): Promise<ReadonlyMap<number, string>> {
  const session = new Session();
  session.connect();
  const urls = new Map<number, string>();
  session.on('Debugger.scriptParsed', ({ params }) => void urls.set(Number(params.scriptId), params.url));
  await session.post('Debugger.enable');
  await session.post('Debugger.disable');
  session.disconnect();
  return urls;
}
