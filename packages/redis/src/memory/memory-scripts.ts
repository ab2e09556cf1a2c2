import { luaScript } from '../redis/lua-script';

/*
 * The keys of one conversation share a hash tag ({id}), so in Redis Cluster they live on one
 * slot and each script stays atomic.
 *   KEYS[1] order     list of exchange ids, oldest first
 *   KEYS[2] exchanges hash: exchange id -> JSON array of the exchange's messages
 *   KEYS[3] lease     "<token> <run id>" of the run that holds the conversation, with a PX TTL
 *   KEYS[4] fence     counter handing out lease (fencing) tokens
 */

/**
 * Takes the lease (when ARGV[2] > 0) and reads the conversation without the exchange of run
 * ARGV[1] (a re-run of one job sees the conversation as it was before that job).
 * Returns {'busy', pttl} when another run holds the lease, else {'ok', token, exchange...}.
 * A lease held by the same run id (a job re-run after its worker died) is taken over.
 */
export const loadScript = luaScript(`
local token = 0
if tonumber(ARGV[2]) > 0 then
  local holder = redis.call('GET', KEYS[3])
  if holder and string.sub(holder, string.find(holder, ' ', 1, true) + 1) ~= ARGV[1] then
    return {'busy', redis.call('PTTL', KEYS[3])}
  end
  token = redis.call('INCR', KEYS[4])
  if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[4], ARGV[3]) end
  redis.call('SET', KEYS[3], token .. ' ' .. ARGV[1], 'PX', ARGV[2])
end
local result = {'ok', tostring(token)}
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  if id ~= ARGV[1] then
    local exchange = redis.call('HGET', KEYS[2], id)
    if exchange then table.insert(result, exchange) end
  end
end
return result
`);

/**
 * Stores exchange ARGV[1] (JSON ARGV[2]) atomically: a new id goes to the end, a known id (the
 * same job run again) replaces its exchange in place. With a lease (ARGV[3] ~= ''), refuses
 * (returns 0) unless the lease is still "<token> <run id>" = ARGV[3], and releases it.
 */
export const appendScript = luaScript(`
if ARGV[3] ~= '' then
  if redis.call('GET', KEYS[3]) ~= ARGV[3] then return 0 end
  redis.call('DEL', KEYS[3])
end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then redis.call('RPUSH', KEYS[1], ARGV[1]) end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if tonumber(ARGV[4]) > 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[4])
  redis.call('EXPIRE', KEYS[2], ARGV[4])
end
return 1
`);

/** Extends the lease (KEYS[1]) by ARGV[2] ms if ARGV[1] still holds it; 1 when extended. */
export const renewScript = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`);

/** Deletes the lease (KEYS[1]) if ARGV[1] still holds it. */
export const releaseScript = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);
