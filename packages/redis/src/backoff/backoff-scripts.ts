import { luaScript } from '../redis/lua-script';

/** Sets KEYS[1] for ARGV[1] ms unless it already lives longer. Returns the key's TTL afterwards. */
export const extendScript = luaScript(`
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[1])
  return tonumber(ARGV[1])
end
return left
`);

/** Milliseconds KEYS[1] still lives (0 when it does not exist). */
export const remainingScript = luaScript(`
local left = redis.call('PTTL', KEYS[1])
if left < 0 then return 0 end
return left
`);
