import { luaScript } from '../redis/lua-script';

/*
 * KEYS[1] the budget: a hash with `nanoUsd` (spent US dollars x 1e9, an integer so sums are exact)
 * and `tokens`.
 */

/** Adds ARGV[1] nano-dollars and ARGV[2] tokens; ARGV[3] > 0 sets the key's TTL (ms). Returns the new totals. */
export const debitScript = luaScript(`
local nanoUsd = redis.call('HINCRBY', KEYS[1], 'nanoUsd', ARGV[1])
local tokens = redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[2])
if tonumber(ARGV[3]) > 0 and redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {nanoUsd, tokens}
`);

/** Reads the totals: {nanoUsd, tokens}. */
export const readScript = luaScript(`
local values = redis.call('HMGET', KEYS[1], 'nanoUsd', 'tokens')
return {tonumber(values[1]) or 0, tonumber(values[2]) or 0}
`);
