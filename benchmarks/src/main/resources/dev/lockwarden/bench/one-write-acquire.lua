-- A prototype for BoundsMain only (not used by Lockwarden): a fenced acquire that writes one key.
-- The last fence is kept in the lock key itself: 't:<fence>' while the lock is free (written by
-- one-write-release.lua), '<token>:<fence>' while held. Fence = max(last + 1, TIME in µs), as acquire.lua.
-- KEYS[1] lock; ARGV[1] token, ARGV[2] ttl ms. Returns the fence, or false when busy.
local v = redis.call('GET', KEYS[1])
local last = 0
if v then
  if string.sub(v, 1, 2) ~= 't:' then
    return false
  end
  last = tonumber(string.sub(v, 3))
end
local now = redis.call('TIME')
local fence = tonumber(now[1]) * 1000000 + tonumber(now[2])
if last + 1 > fence then
  fence = last + 1
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. string.format('%d', fence), 'PX', ARGV[2])
return fence
