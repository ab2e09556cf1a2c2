import { luaScript } from '../redis/lua-script';

/**
 * Sets KEYS[1] for ARGV[1] ms unless it already lives longer, never beyond ARGV[3] ms (a key a
 * peer or an older version set for longer is cut down to it). Returns the key's TTL afterwards.
 */
export const extendScript = luaScript(`
local cap = tonumber(ARGV[3])
local wanted = math.min(tonumber(ARGV[1]), cap)
local left = redis.call('PTTL', KEYS[1])
if left > cap or left == -1 then
  redis.call('PEXPIRE', KEYS[1], cap)
  left = cap
end
if left < wanted then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', wanted)
  return wanted
end
return left
`);

/**
 * Milliseconds KEYS[1] still lives (0 when it does not exist), at most ARGV[1]: a key that would
 * live longer (set by hand, or by a version that did not cap) is cut down to ARGV[1] ms, so no
 * key stalls the fleet beyond the cap.
 */
export const remainingScript = luaScript(`
local cap = tonumber(ARGV[1])
local left = redis.call('PTTL', KEYS[1])
if left == -2 then return 0 end
if left > cap or left == -1 then
  redis.call('PEXPIRE', KEYS[1], cap)
  return cap
end
return left
`);
