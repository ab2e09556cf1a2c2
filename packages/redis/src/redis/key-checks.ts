import { BAD_KEY_REPLY } from './reply-error';

/**
 * Lua that refuses, before a script writes anything, a key of another type than Keel keeps there:
 * `KEYS[i]` must be missing or of type `expected[i]` (an error reply `KEELKEY <key>\t<why>`).
 */
export const checkKeys = (expected: readonly string[]) => `
local expected = {${expected.map((type) => `'${type}'`).join(', ')}}
for i = 1, #KEYS do
  local found = redis.call('TYPE', KEYS[i])['ok']
  if found ~= 'none' and found ~= expected[i] then
    return redis.error_reply('${BAD_KEY_REPLY} ' .. KEYS[i] .. '\\tholds a ' .. found .. ' where Keel keeps a ' .. expected[i])
  end
end
`;

/** Lua that refuses a fence counter that is not a number (`fence` is the GET of `KEYS[key]`). */
export const checkFence = (key: number) => `
if fence and not string.match(fence, '^%d+$') then
  return redis.error_reply('${BAD_KEY_REPLY} ' .. KEYS[${key}] .. '\\tis not a fencing counter')
end
`;
