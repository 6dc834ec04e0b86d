-- Release: delete the lock only if the token matches, then wake waiters in every JVM, and record
-- the cycle as one entry of the lock's own capped history stream (the dashboard's lock detail).
-- The lock's value is token US fence US packed holder (acquire.lua). A lock of the older layout (the
-- token alone, written by older versions) is never this caller's: it is left to its own holder.
-- KEYS[1] lock, KEYS[2] the waiter mark (acquire.lua: set by a waiter's busy answer), KEYS[3] (optional)
-- the lock's history stream — hash-tagged like the lock, so this stays a single-slot script on Redis Cluster
-- ARGV[1] token, ARGV[2] how:
--   'm' delete, and send the release message (on KEYS[1]..':released') if a waiter marked the lock (the
--       mark is deleted with the lock in one DEL: its count says so)
--   'a' delete and send the message even without the mark (the releasing JVM hands the lock to its own
--       waiter, which may not have set it, and counts on the message coming back)
--   'q' delete quietly and record nothing: the cleanup of a failed Redlock attempt (nobody held the lock)
--       must not wake waiters, or they retry in step and split the votes again
--   digits: keep the lock for that many ms instead (the holdAtLeast period is not over; it then expires by
--       itself); no message
-- ARGV[3] (with KEYS[3]) history MAXLEN, ARGV[4] the lock name (for the entry), ARGV[5] history retention ms
-- (the stream's expiry, renewed by every entry: names used once, e.g. one per order id, leave no stream
-- behind for longer than that)
-- The entry is {type release|release-held, name, fence, h (the packed holder: JVM, acquired-at,
-- source, method, thread)}; its id is Redis's clock at the release. One entry per cycle instead of an
-- acquire and a release event sent by the client.
-- Each key and argument costs Redis about as much as a short command (callgrind, docs/benchmarks.md): the
-- channel is built here, only when a message goes out, and the hot path compares in place (find, plain,
-- at 1) and converts no number.
-- Returns 1 if released, 0 if the lock was not ours (expired, force-released, taken by another).
-- A lock that is not here at all is announced free all the same: on Redlock a holder may hold only a
-- majority, and a waiter listens on one node, maybe this one (docs/redlock.md).
local how = ARGV[2]
local v = redis.call('GET', KEYS[1])
if not v then
  if how == 'm' or how == 'a' then
    redis.call('PUBLISH', KEYS[1] .. ':released', '1')
  end
  return 0
end
local n = #ARGV[1]
if string.byte(v, n + 1) ~= 31 or string.find(v, ARGV[1], 1, true) ~= 1 then
  return 0
end
local keep = how ~= 'm' and how ~= 'a' and how ~= 'q'
if KEYS[3] and how ~= 'q' then
  local sep = string.find(v, '\31', n + 2, true)
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[3], '*', 'type', keep and 'release-held' or 'release',
    'name', ARGV[4], 'fence', string.sub(v, n + 2, sep - 1), 'h', string.sub(v, sep + 1))
  redis.call('PEXPIRE', KEYS[3], ARGV[5])
end
if keep then
  redis.call('PEXPIRE', KEYS[1], how)
  return 1
end
if how == 'q' then
  redis.call('DEL', KEYS[1])
  return 1
end
if redis.call('DEL', KEYS[1], KEYS[2]) > 1 or how == 'a' then
  redis.call('PUBLISH', KEYS[1] .. ':released', '1')
end
return 1
