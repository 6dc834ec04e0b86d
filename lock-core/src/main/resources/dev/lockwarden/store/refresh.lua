-- Refresh: extend the lock's TTL only if the token matches. The lock's value is token US fence US
-- packed holder (acquire.lua): one key. A lock written by an older caller (the token alone, the holder
-- in the :info hash) gets its info hash extended too.
-- KEYS[1] lock, KEYS[2] info (older layout)
-- ARGV[1] token, ARGV[2] ttl ms
-- Returns 1 if extended, 0 if the lock is no longer ours.
local v = redis.call('GET', KEYS[1])
if not v then
  return 0
end
local n = #ARGV[1]
if string.byte(v, n + 1) == 31 and string.sub(v, 1, n) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return 1
end
return 0
