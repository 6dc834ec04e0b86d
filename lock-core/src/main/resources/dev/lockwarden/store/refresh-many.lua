-- Refresh many locks of one node in one call (the watchdog's batch): extend lock + info TTL of each
-- lock whose token still matches. Not for Redis Cluster, where the keys span slots.
-- KEYS[2i-1] lock i, KEYS[2i] info i
-- ARGV[2i-1] token i, ARGV[2i] ttl ms i
-- Returns one 1 (extended) or 0 (no longer ours) per lock, in order.
local out = {}
for i = 1, #KEYS / 2 do
  local lock = KEYS[2 * i - 1]
  if redis.call('GET', lock) == ARGV[2 * i - 1] then
    redis.call('PEXPIRE', lock, ARGV[2 * i])
    redis.call('PEXPIRE', KEYS[2 * i], ARGV[2 * i])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
