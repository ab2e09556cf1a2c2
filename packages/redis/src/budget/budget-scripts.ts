import { luaScript } from '../redis/lua-script';
import { BAD_KEY_REPLY } from '../redis/reply-error';

/*
 * KEYS[1] the budget: a hash with `nanoUsd` (spent US dollars x 1e9, an integer so sums are exact)
 * and `tokens`. Both scripts refuse (an error reply `KEELKEY <key>\t<why>`, nothing written) a key
 * that is not such a hash, rather than read a corrupt total as 0 and let calls through.
 */
const CHECK_BUDGET = `
local found = redis.call('TYPE', KEYS[1])['ok']
if found ~= 'none' and found ~= 'hash' then
  return redis.error_reply('${BAD_KEY_REPLY} ' .. KEYS[1] .. '\\tholds a ' .. found .. ' where Keel keeps a budget hash')
end
local values = redis.call('HMGET', KEYS[1], 'nanoUsd', 'tokens')
for i = 1, 2 do
  if values[i] and not string.match(values[i], '^-?%d+$') then
    return redis.error_reply('${BAD_KEY_REPLY} ' .. KEYS[1] .. '\\thas a total that is not a whole number')
  end
end
`;

/** Adds ARGV[1] nano-dollars and ARGV[2] tokens; ARGV[3] > 0 sets the key's TTL (ms). Returns the new totals. */
export const debitScript = luaScript(`${CHECK_BUDGET}
local nanoUsd = redis.call('HINCRBY', KEYS[1], 'nanoUsd', ARGV[1])
local tokens = redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[2])
if tonumber(ARGV[3]) > 0 and redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {nanoUsd, tokens}
`);

/** Reads the totals: {nanoUsd, tokens}. */
export const readScript = luaScript(`${CHECK_BUDGET}
return {tonumber(values[1]) or 0, tonumber(values[2]) or 0}
`);
