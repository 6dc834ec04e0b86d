-- Acquire: take the lock, issue its fence and record the holder, atomically (one round trip).
-- KEYS[1] lock, KEYS[2] fence, then with ARGV[4] = '0' (Redlock) KEYS[3] the node's fence epoch (below); last
-- (optional, only from a caller that will wait for the release message) the waiter mark: a busy answer sets
-- it, so the holder's release.lua knows someone listens and publishes the release message (only then)
-- ARGV[1] token, ARGV[2] ttl ms, ARGV[3] fence retention ms, ARGV[4] '1' = the microsecond floor, stored in
-- the counter (single node, cluster) / '0' = Redlock phase 1 (the whole-second floor, below),
-- ARGV[5] the packed holder (LockHolder: jvm, acquired-at, source, method, thread; what is the same for
-- every lock of a JVM is stored once per JVM, not here)
-- The lock's value is the whole record: token US fence US packed holder (US = \31; LockValue), so an
-- acquire writes one key besides the counter, and refresh and release touch one key. Each key and argument
-- of a script call costs Redis about as much as a short command (callgrind, docs/benchmarks.md), so only
-- what this script uses is passed: not the :info hash of the older layout (its locks, written by older
-- versions, are busy here like any other holder's).
-- The fence is max(counter + 1, floor) with floor = this server's clock in microseconds since the
-- epoch (TIME): a counter lost to retention expiry, a restart without persistence or a failover
-- to a stale replica restarts at the clock, which is above every fence issued before as long as
-- the clock did not step back (docs/fencing.md). About 1.8e15 today: exact in Lua's doubles
-- (< 2^53, until the year 2255) and far inside SQL BIGINT.
-- Redlock phase 1 ('0') takes a coarser floor: the clock's whole second (TIME seconds * 1e6, still at
-- most the clock in microseconds). Healthy nodes with equal counters then compute the same fence within
-- one second (counter + 1, or the second), store it and phase 2 is skipped. A missing counter (a new
-- name, one unused for the retention, or one lost with the node's data) takes the whole second too, and
-- stores it, when the node's fence epoch — the microsecond at which this node last started without data
-- (set by the first acquire that finds it missing: after an empty restart, a flush or a failover to an
-- empty replica) — lies before this second: every counter lost then held a fence at most the clock at
-- that moment. Otherwise (the epoch is missing or from this second) it takes the microsecond floor,
-- returned and stored by phase 2 only (docs/fencing.md, "Redlock").
-- Returns (an integer reply on the hot paths: no array to build and parse)
--   fence (> 0)                  acquired, the counter holds the fence
--   {1, fence, 1 | 0}            acquired, 1 = the counter is below the fence (Redlock, floor not stored);
--                                also the reply of a retry that finds its own token (idempotent per token)
--   -2 - the holder's PTTL (< 0) busy (-1: the key has no TTL, so Lockwarden did not write it)
local v = redis.call('GET', KEYS[1])
if v then
  local n = #ARGV[1]
  -- (find, plain, at 1: compares in place where a sub would build a string)
  if string.byte(v, n + 1) == 31 and string.find(v, ARGV[1], 1, true) == 1 then
    -- our own token (a retry after a lost reply): the fence is the value's second field
    local fence = tonumber(string.sub(v, n + 2, string.find(v, '\31', n + 2, true) - 1))
    return {1, fence, tonumber(redis.call('GET', KEYS[2]) or '0') < fence and 1 or 0}
  end
  local ttl = redis.call('PTTL', KEYS[1])
  local mark = KEYS[ARGV[4] == '1' and 3 or 4]
  if mark then
    -- outlives the holder's TTL by the waiter's own: the waiter tries again (and sets it again) within the
    -- holder's remaining TTL, and the holder's release deletes it
    redis.call('SET', mark, '1', 'PX', (ttl > 0 and ttl or 0) + ARGV[2])
  end
  return -2 - ttl
end
local now = redis.call('TIME')
local fence
local text -- the fence as written into the value, when it is the floor (formatted once)
local behind = 0
if ARGV[4] == '1' then
  -- SET ... GET: the floor wins almost always, so store it and read the old counter in one command;
  -- an old counter at or above the floor (clock stepped back, or counting ahead) is put right after
  local floor = tonumber(now[1]) * 1000000 + tonumber(now[2])
  -- formatted once, for the counter and the value: a number argument costs Redis a %.17g conversion
  -- (same digits: the floor is an integer below 1e17); callgrind, docs/benchmarks.md
  text = string.format('%d', floor)
  local old = redis.call('SET', KEYS[2], text, 'PX', ARGV[3], 'GET')
  fence = floor
  if old then
    local counter = tonumber(old)
    if not counter or counter ~= math.floor(counter) then
      -- not a number: put it back and fail with INCR's own "not an integer" error (nothing is taken)
      redis.call('SET', KEYS[2], old)
      redis.call('INCR', KEYS[2])
    end
    if counter >= floor then
      fence = counter + 1
      -- a number argument is sent with 17 significant digits, so the value is stored exactly
      redis.call('SET', KEYS[2], fence, 'PX', ARGV[3])
      text = nil
    end
  end
else
  local current = redis.call('GET', KEYS[2])
  local counter = tonumber(current or '0')
  if not counter or counter ~= math.floor(counter) then
    redis.call('INCR', KEYS[2])
  end
  local floor = tonumber(now[1]) * 1000000
  if current then
    fence = math.max(counter + 1, floor)
    redis.call('SET', KEYS[2], fence, 'PX', ARGV[3])
  else
    local epoch = tonumber(redis.call('GET', KEYS[3]) or '')
    if not epoch then
      -- this node's data is new or was lost: nothing is known about the fences issued before now
      redis.call('SET', KEYS[3], string.format('%d', floor + tonumber(now[2])))
    end
    if epoch and epoch < floor then
      fence = floor
      redis.call('SET', KEYS[2], fence, 'PX', ARGV[3])
    else
      fence = floor + tonumber(now[2])
      behind = 1 -- phase 2 stores the token on a majority
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1] .. '\31' .. (text or string.format('%d', fence)) .. '\31' .. ARGV[5], 'PX', ARGV[2])
if behind == 1 then
  return {1, fence, 1}
end
return fence
