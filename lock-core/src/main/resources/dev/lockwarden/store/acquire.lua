-- Acquire: SET NX PX, then bump the fence and write holder info, atomically (one round trip).
-- KEYS[1] lock, KEYS[2] info, KEYS[3] fence
-- ARGV[1] token, ARGV[2] ttl ms, ARGV[3] fence retention ms, ARGV[4..] info field/value pairs
-- Returns {1, fence} when acquired, {0, holder's remaining TTL in ms} when busy.
-- Idempotent per token: a retry after a lost reply finds its own token and gets its fence back.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local fence = redis.call('INCR', KEYS[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
  -- the info hash shares the lock's PX, so no stale one can linger: HSET overwrites every field
  redis.call('HSET', KEYS[2], 'fence', fence, unpack(ARGV, 4))
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return {1, fence}
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return {1, tonumber(redis.call('HGET', KEYS[2], 'fence'))}
end
return {0, redis.call('PTTL', KEYS[1])}
