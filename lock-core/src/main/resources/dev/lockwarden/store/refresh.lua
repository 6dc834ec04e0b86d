-- Refresh: extend lock + info TTL only if the token matches.
-- KEYS[1] lock, KEYS[2] info
-- ARGV[1] token, ARGV[2] ttl ms
-- Returns 1 if extended, 0 if the lock is no longer ours.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return 1
end
return 0
