import { luaScript } from '../redis/lua-script';

/** KEYS: fence. Returns the new owner's fence. */
export const acquireScript = luaScript(`return redis.call('INCR', KEYS[1])`);

/**
 * KEYS: fence, checkpoint. ARGV: the version the checkpoint must still have. Returns the new
 * owner's fence, -1 when the checkpoint has another version (no owner made), -2 when the
 * checkpoint key holds what Keel did not write.
 */
export const acquireAtScript = luaScript(`
if redis.call('EXISTS', KEYS[2]) == 1 and redis.call('TYPE', KEYS[2]).ok ~= 'hash' then return -2 end
local version = redis.call('HGET', KEYS[2], 'version')
if version == false or tostring(version) ~= ARGV[1] then return -1 end
return redis.call('INCR', KEYS[1])
`);

/**
 * KEYS: fence, checkpoint (hash: version, data). ARGV: the writer's fence, the checkpoint JSON.
 * Writes when the writer is the newest owner and returns the new version; returns -1 otherwise
 * (nothing written), and -2 when a key holds what Keel did not write.
 */
export const saveScript = luaScript(`
local current = redis.call('GET', KEYS[1])
if current == false or tostring(current) ~= ARGV[1] then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 and redis.call('TYPE', KEYS[2]).ok ~= 'hash' then return -2 end
local version = redis.call('HINCRBY', KEYS[2], 'version', 1)
redis.call('HSET', KEYS[2], 'data', ARGV[2])
return version
`);

/** KEYS: checkpoint. Returns [version, data] or an empty list. */
export const loadScript = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then return -2 end
return redis.call('HMGET', KEYS[1], 'version', 'data')
`);

/** KEYS: claim. ARGV: ttl in ms. Returns 1 the first time, 0 after. */
export const claimScript = luaScript(`
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 1 end
return 0
`);

/** KEYS: claim. Gives the claim back. */
export const releaseScript = luaScript(`return redis.call('DEL', KEYS[1])`);
