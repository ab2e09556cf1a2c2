import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedisServer } from '../testing/redis-server';
import { conversationKeys } from './conversation-keys';
import { redisMemory } from './redis-memory';

/** Conversation ids a user may pass: hash tags of their own, empty, braces, long. */
const IDS = ['customer-42', '', '}support', '{support}', 'a{b}c', '{}', '{', '#x', 'x'.repeat(300)];

let server: TestRedisServer;
let admin: Redis;
let cluster: Cluster;
const configFile = join(tmpdir(), `keel-cluster-${process.pid}-${Date.now()}.conf`);

// A real one-node Redis Cluster: every slot on this node, so a script whose keys span slots
// fails with CROSSSLOT exactly as on a production cluster.
beforeAll(async () => {
  server = await startRedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', configFile, '--cluster-announce-ip', '127.0.0.1']);
  admin = new Redis(server.port, '127.0.0.1');
  await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
  while (!String(await admin.call('CLUSTER', 'INFO')).includes('cluster_state:ok')) await new Promise((resolve) => setTimeout(resolve, 50));
  cluster = new Cluster([{ host: '127.0.0.1', port: server.port }], { redisOptions: { maxRetriesPerRequest: 1 } });
}, 30_000);
afterAll(async () => {
  cluster?.disconnect();
  admin?.disconnect();
  await server?.stop();
  rmSync(configFile, { force: true });
});

describe('redisMemory on Redis Cluster', () => {
  it('puts every key of a conversation in one slot, whatever its id (the server’s own slot function)', async () => {
    for (const prefix of ['keel:', 'support:', '']) {
      for (const id of IDS) {
        const slots = new Set<unknown>();
        for (const key of Object.values(conversationKeys(prefix, id))) slots.add(await admin.call('CLUSTER', 'KEYSLOT', key));
        expect({ id, slots: slots.size }).toEqual({ id, slots: 1 });
      }
    }
  });

  it('runs, loads and appends on a Cluster client for every id, leases included', async () => {
    const memory = redisMemory({ redis: cluster });
    const model = scriptedModel((request) => `answer to ${String(request.messages.at(-1)?.content)}`);
    const agent = Agent.create({ provider: model, model: 'm' }).memory(memory).build();
    for (const id of IDS) {
      await agent.run(`q ${id.slice(0, 10)}`, { conversationId: id });
      await agent.run('again', { conversationId: id });
      expect((await memory.load(id)).map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    }
  });
});
