import { luaScript } from '../redis/lua-script';
import { checkFence, checkKeys } from '../redis/key-checks';

/*
 * The keys of one conversation share a hash tag (see conversation-keys.ts), so in Redis Cluster
 * they live on one slot and each script stays atomic.
 *   KEYS[1] order     list of exchange ids, oldest first
 *   KEYS[2] exchanges hash: exchange id -> JSON array of the exchange's messages
 *   KEYS[3] lease     "<token> <run id>" of the run that holds the conversation, with a PX TTL
 *   KEYS[4] fence     counter handing out lease (fencing) tokens
 *
 * Every script checks what the keys hold before it writes anything, so a script that refuses
 * (an error reply `KEELKEY <key>\t<why>`) leaves no lease or half-written exchange behind.
 * Tokens only grow: a missing counter starts at the server's clock in milliseconds, so a counter
 * that expired with its conversation never hands out a token again.
 */
const CHECK_KEYS = `${checkKeys(['list', 'hash', 'string', 'string'])}
local fence = redis.call('GET', KEYS[4])
${checkFence(4)}`;

/**
 * Takes the lease (when ARGV[2] > 0) and reads the conversation without the exchange of run
 * ARGV[1] (a re-run of one job sees the conversation as it was before that job).
 * ARGV: 1 run id, 2 lease ms, 3 fence TTL ms (0: none).
 * Returns {'busy', pttl} when another run holds a live lease, else {'ok', token, exchange...}.
 * A lease held by the same run id (a job re-run after its worker died) is taken over; a lease
 * Keel did not write (no token, or no TTL) counts as expired.
 */
export const loadScript = luaScript(`${CHECK_KEYS}
local token = '0'
if tonumber(ARGV[2]) > 0 then
  local holder = redis.call('GET', KEYS[3])
  if holder then
    local heldRun = string.match(holder, '^%d+ (.*)$')
    local left = redis.call('PTTL', KEYS[3])
    if heldRun and left > 0 and heldRun ~= ARGV[1] then return {'busy', left} end
  end
  if not fence then
    local now = redis.call('TIME')
    redis.call('SET', KEYS[4], now[1] .. string.format('%03d', math.floor(tonumber(now[2]) / 1000)))
  end
  token = string.format('%d', redis.call('INCR', KEYS[4]))
  if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[4], ARGV[3]) end
  redis.call('SET', KEYS[3], token .. ' ' .. ARGV[1], 'PX', ARGV[2])
end
local result = {'ok', token}
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
 * same job run again) replaces its exchange in place.
 * ARGV: 1 exchange id, 2 JSON, 3 holder ("<token> <run id>", or '' without a lease),
 * 4 conversation TTL seconds (0: none), 5 fence TTL ms (0: none).
 * Fencing decides, not the lease key: with a holder, the exchange is stored when the counter
 * still hands out the holder's token (the lease may have expired while nobody else came: a
 * blocked event loop, a paused Redis), and refused (returns 0) once another run took the
 * conversation (a newer token). The holder's lease is released.
 */
export const appendScript = luaScript(`${CHECK_KEYS}
if ARGV[3] ~= '' then
  local token = string.match(ARGV[3], '^(%d+) ')
  if fence and fence ~= token then return 0 end
  if redis.call('GET', KEYS[3]) == ARGV[3] then redis.call('DEL', KEYS[3]) end
end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then redis.call('RPUSH', KEYS[1], ARGV[1]) end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if tonumber(ARGV[4]) > 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[4])
  redis.call('EXPIRE', KEYS[2], ARGV[4])
end
if fence and tonumber(ARGV[5]) > 0 then redis.call('PEXPIRE', KEYS[4], ARGV[5]) end
return 1
`);

/**
 * Extends the lease (KEYS[1]) by ARGV[2] ms while holder ARGV[1] may hold it: it still does, or
 * its lease expired (or was overwritten) and the fence (KEYS[2]) still hands out its token, so
 * nobody else took the conversation; then the lease is set again. Returns 1 when held, 0 when
 * another run took it. ARGV[3]: fence TTL ms (0: none).
 */
export const renewScript = luaScript(`
local leaseType = redis.call('TYPE', KEYS[1])['ok']
local fenceType = redis.call('TYPE', KEYS[2])['ok']
if (leaseType ~= 'none' and leaseType ~= 'string') or (fenceType ~= 'none' and fenceType ~= 'string') then return 0 end
local lease = redis.call('GET', KEYS[1])
local fence = redis.call('GET', KEYS[2])
if fence and tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
if lease == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if fence and fence ~= string.match(ARGV[1], '^(%d+) ') then return 0 end
if lease and string.match(lease, '^%d+ ') and redis.call('PTTL', KEYS[1]) > 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

/** Deletes the lease (KEYS[1]) if ARGV[1] still holds it. */
export const releaseScript = luaScript(`
if redis.call('TYPE', KEYS[1])['ok'] ~= 'string' then return 0 end
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);
