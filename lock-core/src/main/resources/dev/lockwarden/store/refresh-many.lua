-- Refresh many locks of one node in one call (the watchdog's batch): extend the TTL of each lock
-- whose token still matches (as refresh.lua: the value is token US fence US packed holder; a lock of
-- the older layout, the token alone, gets its :info hash extended too). Not for Redis Cluster, where
-- the keys span slots.
-- KEYS[2i-1] lock i, KEYS[2i] info i (older layout)
-- ARGV[2i-1] token i, ARGV[2i] ttl ms i
-- Returns one 1 (extended) or 0 (no longer ours) per lock, in order.
local out = {}
for i = 1, #KEYS / 2 do
  local lock = KEYS[2 * i - 1]
  local token = ARGV[2 * i - 1]
  local v = redis.call('GET', lock)
  out[i] = 0
  if v then
    local n = #token
    if string.byte(v, n + 1) == 31 and string.sub(v, 1, n) == token then
      redis.call('PEXPIRE', lock, ARGV[2 * i])
      out[i] = 1
    elseif v == token then
      redis.call('PEXPIRE', lock, ARGV[2 * i])
      redis.call('PEXPIRE', KEYS[2 * i], ARGV[2 * i])
      out[i] = 1
    end
  end
end
return out
