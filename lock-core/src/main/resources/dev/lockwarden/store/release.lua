-- Release: delete the lock only if the token matches, then wake waiters in every JVM, and record
-- the cycle as one entry of the lock's own capped history stream (the dashboard's lock detail).
-- The lock's value is token US fence US packed holder (acquire.lua). A lock of the older layout (the
-- token alone, written by older versions) is never this caller's: it is left to its own holder.
-- KEYS[1] lock, KEYS[2] the waiter mark (acquire.lua: set by a waiter's busy answer), KEYS[3] (optional)
-- the lock's history stream — hash-tagged like the lock, so this stays a single-slot script on Redis Cluster
-- ARGV[1] token, ARGV[2] release channel ('' = release quietly: the cleanup of a failed Redlock
-- attempt must not wake waiters, or they retry in step and split the votes again); the release message
-- goes out only when the waiter mark was set (deleted with the lock in one DEL: its count says so)
-- ARGV[3] keep ms: > 0 = the holdAtLeast period is not over, so keep the lock for that long instead
-- of deleting it (it then expires by itself; no wake-up is sent)
-- ARGV[4] '1' = send the release message even without the waiter mark (the releasing JVM hands the lock
-- to its own waiter, which may not have set it, and counts on the message coming back)
-- ARGV[5] (optional) history MAXLEN ('0' or absent = no entry), ARGV[6] the lock name (for the entry),
-- ARGV[7] history retention ms (the stream's expiry, renewed by every entry: names used once, e.g. one
-- per order id, leave no stream behind for longer than that)
-- The entry is {type release|release-held, name, fence, h (the packed holder: JVM, acquired-at,
-- source, method, thread)}; its id is Redis's clock at the release. One entry per cycle instead of an
-- acquire and a release event sent by the client.
-- Each key and argument costs Redis about as much as a short command (callgrind, docs/benchmarks.md):
-- the hot path compares in place (find, plain, at 1) and converts no number.
-- Returns 1 if released, 0 if the lock was not ours (expired, force-released, taken by another).
-- A lock that is not here at all is announced free all the same: on Redlock a holder may hold only a
-- majority, and a waiter listens on one node, maybe this one (docs/redlock.md).
local v = redis.call('GET', KEYS[1])
if not v then
  if ARGV[2] ~= '' then
    redis.call('PUBLISH', ARGV[2], '1')
  end
  return 0
end
local n = #ARGV[1]
if string.byte(v, n + 1) ~= 31 or string.find(v, ARGV[1], 1, true) ~= 1 then
  return 0
end
local keep = ARGV[3] ~= '0' and tonumber(ARGV[3]) > 0
if KEYS[3] and (ARGV[5] or '0') ~= '0' then
  local sep = string.find(v, '\31', n + 2, true)
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[5], '*', 'type', keep and 'release-held' or 'release',
    'name', ARGV[6], 'fence', string.sub(v, n + 2, sep - 1), 'h', string.sub(v, sep + 1))
  redis.call('PEXPIRE', KEYS[3], ARGV[7])
end
if keep then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
  return 1
end
if redis.call('DEL', KEYS[1], KEYS[2]) > 1 or ARGV[4] == '1' then
  redis.call('PUBLISH', ARGV[2], '1')
end
return 1
