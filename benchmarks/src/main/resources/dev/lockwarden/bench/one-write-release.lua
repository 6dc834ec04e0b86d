-- A prototype for BoundsMain only (not used by Lockwarden): the release of one-write-acquire.lua.
-- Instead of deleting the lock it leaves 't:<fence>' for the fence's retention, and wakes waiters.
-- KEYS[1] lock, KEYS[2] release channel; ARGV[1] token, ARGV[2] fence retention ms. Returns 1 or 0.
local v = redis.call('GET', KEYS[1])
if not v then
  return 0
end
local n = #ARGV[1]
if string.sub(v, 1, n) ~= ARGV[1] or string.byte(v, n + 1) ~= 58 then
  return 0
end
redis.call('SET', KEYS[1], 't:' .. string.sub(v, n + 2), 'PX', ARGV[2])
redis.call('PUBLISH', KEYS[2], '1')
return 1
