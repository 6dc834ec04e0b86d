-- Acquire: SET NX PX, then bump the fence and write holder info, atomically (one round trip).
-- KEYS[1] lock, KEYS[2] info, KEYS[3] fence
-- ARGV[1] token, ARGV[2] ttl ms, ARGV[3] fence retention ms, ARGV[4] '1' = store a clock floor in the
-- counter (single node, cluster) / '0' = only return it (Redlock: phase 2 stores the maximum on a
-- majority, so a node answering late never holds a counter above the token handed out),
-- ARGV[5] the packed holder (LockHolder: jvm, acquired-at, source, method, thread; what is the same for
-- every lock of a JVM is stored once per JVM, not here) — or, from older callers, ARGV[5..] info
-- field/value pairs
-- The fence is max(counter + 1, floor) with floor = this server's clock in microseconds since the
-- epoch (TIME): a counter lost to retention expiry, a restart without persistence or a failover
-- to a stale replica restarts at the clock, which is above every fence issued before as long as
-- the clock did not step back (docs/fencing.md). About 1.8e15 today: exact in Lua's doubles
-- (< 2^53, until the year 2255) and far inside SQL BIGINT.
-- Redlock phase 1 ('0') takes a coarser floor while the counter exists: the clock's whole second
-- (TIME seconds * 1e6, still at most the clock in microseconds). Healthy nodes with equal counters
-- then compute the same fence within one second, store it (counter + 1, never a floor) and phase 2
-- is skipped; a missing counter (new name, or lost) still takes the microsecond floor, returned and
-- stored by phase 2 only (docs/fencing.md, "Redlock").
-- Returns {1, fence, 1 if the counter is below the fence (floor not stored) else 0} when acquired,
-- {0, holder's remaining TTL in ms} when busy.
-- Idempotent per token: a retry after a lost reply finds its own token and gets its fence back.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  -- GET + SET PX rather than INCR + SET + PEXPIRE: the floor wins almost always, so the INCR was
  -- overwritten anyway. A counter that is not a number gets INCR's own "not an integer" error.
  local current = redis.call('GET', KEYS[3])
  local counter = tonumber(current or '0')
  if not counter or counter ~= math.floor(counter) then
    redis.call('INCR', KEYS[3])
  end
  local fence = counter + 1
  local now = redis.call('TIME')
  local floor = tonumber(now[1]) * 1000000
  if ARGV[4] == '1' or not current then
    floor = floor + tonumber(now[2])
  end
  local behind = 0
  if floor > fence then
    fence = floor
    if ARGV[4] ~= '1' then
      behind = 1 -- Redlock: phase 2 stores the token on a majority; a floor is never stored here
    end
  end
  if behind == 0 then
    -- a number argument is sent with 17 significant digits, so the value is stored exactly
    redis.call('SET', KEYS[3], fence, 'PX', ARGV[3])
  end
  -- the info hash shares the lock's PX, so no stale one can linger: HSET overwrites every field
  if #ARGV == 5 then
    redis.call('HSET', KEYS[2], 'fence', fence, 'h', ARGV[5])
  else
    redis.call('HSET', KEYS[2], 'fence', fence, unpack(ARGV, 5))
  end
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return {1, fence, behind}
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  local fence = tonumber(redis.call('HGET', KEYS[2], 'fence'))
  return {1, fence, tonumber(redis.call('GET', KEYS[3]) or '0') < fence and 1 or 0}
end
return {0, redis.call('PTTL', KEYS[1])}
