-- Release: delete the lock only if the token matches, then wake waiters in every JVM, and record
-- the cycle as one entry of the lock's own capped history stream (the dashboard's lock detail).
-- The lock's value is token US fence US packed holder (acquire.lua), or, written by an older caller,
-- the token alone with the holder in the :info hash; both are released here.
-- KEYS[1] lock, KEYS[2] info (older layout), KEYS[3] the waiter mark (acquire.lua: set by a waiter's busy
-- answer), KEYS[4] (optional) the lock's history stream — hash-tagged like the lock, so this stays a
-- single-slot script on Redis Cluster
-- ARGV[1] token, ARGV[2] release channel ('' = release quietly: the cleanup of a failed Redlock
-- attempt must not wake waiters, or they retry in step and split the votes again); the release message
-- goes out only when the waiter mark was set (deleted with the lock in one DEL: its count says so)
-- ARGV[3] keep ms: > 0 = the holdAtLeast period is not over, so keep lock + info for that long instead
-- of deleting them (they then expire by themselves; no wake-up is sent)
-- ARGV[4] '1' = send the release message even without the waiter mark (the releasing JVM hands the lock
-- to its own waiter, which may not have set it, and counts on the message coming back)
-- ARGV[5] (optional) history MAXLEN ('0' or absent = no entry), ARGV[6] the lock name (for the entry),
-- ARGV[7] history retention ms (the stream's expiry, renewed by every entry: names used once, e.g. one
-- per order id, leave no stream behind for longer than that)
-- The entry is {type release|release-held, name, fence, h (the packed holder: JVM, acquired-at,
-- source, method, thread)} (older layout: the info hash's fields); its id is Redis's clock at the release. One entry per
-- cycle instead of an acquire and a release event sent by the client.
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
local packed = string.byte(v, n + 1) == 31 and string.sub(v, 1, n) == ARGV[1]
if not packed and v ~= ARGV[1] then
  return 0
end
local keep = tonumber(ARGV[3])
if KEYS[4] and tonumber(ARGV[5] or '0') > 0 then
  local entry = {'type', (keep and keep > 0) and 'release-held' or 'release', 'name', ARGV[6]}
  if packed then
    local sep = string.find(v, '\31', n + 2, true)
    entry[5] = 'fence'
    entry[6] = string.sub(v, n + 2, sep - 1)
    entry[7] = 'h'
    entry[8] = string.sub(v, sep + 1)
  else
    -- pcall: an info key that is not a hash (written by hand) must not keep the lock from being released
    local info = redis.pcall('HGETALL', KEYS[2])
    if not info.err then
      for i = 1, #info do
        entry[#entry + 1] = info[i]
      end
    end
  end
  redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[5], '*', unpack(entry))
  redis.call('PEXPIRE', KEYS[4], ARGV[7])
end
if keep and keep > 0 then
  redis.call('PEXPIRE', KEYS[1], keep)
  if not packed then
    redis.call('PEXPIRE', KEYS[2], keep)
  end
  return 1
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1], KEYS[2])
  return 1
end
if not packed then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  redis.call('PUBLISH', ARGV[2], '1') -- the older layout's waiters may not set the mark
elseif redis.call('DEL', KEYS[1], KEYS[3]) > 1 or ARGV[4] == '1' then
  redis.call('PUBLISH', ARGV[2], '1')
end
return 1
