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

/**
 * ARGV[1] names a process, ARGV[2] and ARGV[3] are the nano-dollars and tokens it has spent in all
 * in this key (running totals); ARGV[4] > 0 sets the key's TTL (ms). Adds to the totals only what
 * the key has not seen from that process yet, so a debit sent twice is counted once. Returns the
 * new totals.
 */
export const debitScript = luaScript(`${CHECK_BUDGET}
local field = 'debitor:' .. ARGV[1]
local seenUsd, seenTokens = string.match(redis.call('HGET', KEYS[1], field) or '0 0', '^(%d+) (%d+)$')
local prevUsd, prevTokens = tonumber(seenUsd) or 0, tonumber(seenTokens) or 0
local sentUsd, sentTokens = tonumber(ARGV[2]), tonumber(ARGV[3])
local addUsd, addTokens = math.max(sentUsd - prevUsd, 0), math.max(sentTokens - prevTokens, 0)
local nanoUsd = redis.call('HINCRBY', KEYS[1], 'nanoUsd', string.format('%.0f', addUsd))
local tokens = redis.call('HINCRBY', KEYS[1], 'tokens', string.format('%.0f', addTokens))
if addUsd > 0 or addTokens > 0 then
  redis.call('HSET', KEYS[1], field, string.format('%.0f %.0f', math.max(prevUsd, sentUsd), math.max(prevTokens, sentTokens)))
end
if tonumber(ARGV[4]) > 0 and redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return {nanoUsd, tokens}
`);
/** Reads the totals: {nanoUsd, tokens}. */
export const readScript = luaScript(`${CHECK_BUDGET}
return {tonumber(values[1]) or 0, tonumber(values[2]) or 0}
`);
