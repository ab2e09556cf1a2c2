import { luaScript } from '../redis/lua-script';
import { checkFence, checkKeys } from '../redis/key-checks';
import { BAD_KEY_REPLY } from '../redis/reply-error';

/*
 * The keys of one run share a hash tag (see run-keys.ts), so in Redis Cluster they live on one
 * slot and each script stays atomic.
 *   fence    counter handing out owners' fences
 *   entries  list of the journal's entries, each the JSON text it was handed, oldest first
 *   meta     hash: agentId, status, and tenant when the run has one
 * Every script checks what its keys hold before it writes anything, so a script that refuses (an
 * error reply `KEELKEY <key>\t<why>`) leaves nothing half-written. The version of a run is the
 * length of its entries list.
 */

/** Most values handed to one RPUSH, well under Lua's limit on unpacked values. */
const PUSH_CHUNK = 1000;

/** KEYS: fence. Returns the new owner's fence. */
export const acquireScript = luaScript(`${checkKeys(['string'])}
local fence = redis.call('GET', KEYS[1])
${checkFence(1)}
return redis.call('INCR', KEYS[1])
`);

/**
 * KEYS: fence, entries. ARGV: the version (entry count) the journal must still have. Returns the
 * new owner's fence, or -1 when the journal has another version (no owner made).
 */
export const acquireAtScript = luaScript(`${checkKeys(['string', 'list'])}
local fence = redis.call('GET', KEYS[1])
${checkFence(1)}
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[1]) then return -1 end
return redis.call('INCR', KEYS[1])
`);

/**
 * KEYS: fence, entries, meta. ARGV: 1 the writer's fence, 2 agent id, 3 status, 4 '1' when the
 * run has a tenant, 5 the tenant (or ''), 6.. the entries' JSON texts. Appends the entries and
 * sets the meta when the writer is the newest owner, and returns the new version; returns -1
 * otherwise, writing nothing.
 */
export const appendScript = luaScript(`${checkKeys(['string', 'list', 'hash'])}
local fence = redis.call('GET', KEYS[1])
${checkFence(1)}
if fence ~= ARGV[1] then return -1 end
for first = 6, #ARGV, ${PUSH_CHUNK} do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, first, math.min(#ARGV, first + ${PUSH_CHUNK - 1})))
end
redis.call('HSET', KEYS[3], 'agentId', ARGV[2], 'status', ARGV[3])
if ARGV[4] == '1' then redis.call('HSET', KEYS[3], 'tenant', ARGV[5]) else redis.call('HDEL', KEYS[3], 'tenant') end
return redis.call('LLEN', KEYS[2])
`);

/**
 * KEYS: entries, meta. Returns an empty list for an unknown run, else
 * {agentId, status, hasTenant ('1' or '0'), tenant (or ''), entry...}.
 */
export const loadScript = luaScript(`${checkKeys(['list', 'hash'])}
if redis.call('EXISTS', KEYS[2]) == 0 then return {} end
local meta = redis.call('HMGET', KEYS[2], 'agentId', 'status', 'tenant')
if not meta[1] or not meta[2] then
  return redis.error_reply('${BAD_KEY_REPLY} ' .. KEYS[2] .. '\\thas no agentId or status')
end
local result = {meta[1], meta[2], meta[3] and '1' or '0', meta[3] or ''}
for _, entry in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do table.insert(result, entry) end
return result
`);

/** KEYS: claim. ARGV: ttl in ms. Returns 1 the first time, 0 after. */
export const claimScript = luaScript(`
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 1 end
return 0
`);

/** KEYS: claim. Gives the claim back. */
export const releaseScript = luaScript(`return redis.call('DEL', KEYS[1])`);
