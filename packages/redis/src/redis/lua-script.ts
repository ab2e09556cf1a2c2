import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-client';

/** A Lua script run by its SHA1, sent in full only when the server does not have it yet. */
export interface LuaScript {
  run(redis: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
}

/** Defines a Lua script (EVALSHA, falling back to EVAL on `NOSCRIPT`). */
export function luaScript(source: string): LuaScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return {
    async run(redis, keys, args) {
      try {
        return await redis.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return redis.eval(source, keys.length, ...keys, ...args);
      }
    },
  };
}
