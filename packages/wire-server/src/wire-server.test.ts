import { afterEach, describe, expect, it } from 'vitest';
import { jsonReply, sseReply } from './wire-reply';
import { startWireServer } from './wire-server';
import type { WireServer } from './wire-server';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
});

describe('startWireServer', () => {
  it('replays scripted replies in order on 127.0.0.1 and records each request', async () => {
    server = await startWireServer(jsonReply({ ok: 1 }, { headers: { 'x-test': 'yes' } }), sseReply([{ event: 'ping', data: { type: 'ping' } }, { data: '[DONE]' }]));
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const first = await fetch(`${server.url}/v1/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-key': 'k' }, body: '{"a":1}' });
    expect(first.headers.get('x-test')).toBe('yes');
    expect(await first.json()).toEqual({ ok: 1 });
    const second = await fetch(`${server.url}/stream`);
    expect(await second.text()).toBe('event: ping\ndata: {"type":"ping"}\n\ndata: [DONE]\n\n');
    expect(server.requests).toMatchObject([
      { method: 'POST', path: '/v1/messages?beta=true', body: { a: 1 }, headers: { 'x-key': 'k' } },
      { method: 'GET', path: '/stream', body: undefined },
    ]);
  });

  it('answers a request beyond the script with a visible error', async () => {
    server = await startWireServer();
    const response = await fetch(`${server.url}/x`);
    expect(response.status).toBe(599);
    expect(await response.json()).toEqual({ error: 'wire-server: no scripted reply for request 1' });
  });
});
