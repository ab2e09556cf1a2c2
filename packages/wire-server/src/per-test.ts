import { afterEach, beforeEach } from 'vitest';
import { startWireServer, type WireServer } from './wire-server';
import type { WireReply } from './wire-reply';

/**
 * One wire server for each test of the file: started before each test, closed after it.
 * `check` runs first, after each test, e.g. to hold every request the test sent to the vendor's
 * rules. Returns the current test's server.
 */
export function wireServerPerTest(check?: (server: WireServer) => void): () => WireServer {
  let current: WireServer | undefined;
  beforeEach(async () => {
    current = await startWireServer();
  });
  afterEach(async () => {
    const server = current;
    current = undefined;
    try {
      if (server) check?.(server);
    } finally {
      await server?.close();
    }
  });
  return () => {
    if (!current) throw new Error('the wire server runs only inside a test');
    return current;
  };
}

/**
 * Wire servers a test starts as it needs them (each with its replies), all closed after the
 * test. Returns the function that starts one.
 */
export function wireServersPerTest(): (...replies: WireReply[]) => Promise<WireServer> {
  const started: WireServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  return async (...replies) => {
    const server = await startWireServer(...replies);
    started.push(server);
    return server;
  };
}
