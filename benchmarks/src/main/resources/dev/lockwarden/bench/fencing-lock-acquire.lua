-- The like-for-like fenced lock of the benchmarks (FencingLockContender), not used by Lockwarden: take the
-- lock with SET NX PX and, only when that succeeds, issue the next fence with INCR, in one script.
-- KEYS[1] lock, KEYS[2] fence counter; ARGV[1] token, ARGV[2] ttl ms. Returns the fence, or 0 when busy.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0
