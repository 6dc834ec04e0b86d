-- Force-release (operator), atomically: release only if the lock still has the token and fence the
-- operator confirmed, else change nothing. On release: delete the lock (and an older layout's info hash), bump the fence (the old
-- holder's fence is now stale), append the audit record to the lock's own capped history (and, when
-- not on a cluster, to the global audit stream), wake waiters and tell the holder at once on the prefix's one
-- force-released channel (every client subscribes to it once; the message names the lock and the token's
-- SHA-1, so only that acquisition ends; on a cluster PUBLISH reaches every node). It also leaves a
-- short-lived marker (the old token's SHA-1 and the operator) that the holder reads when its refresh
-- finds the token gone, so its lost reason says "force-released by <operator>" (internal/LossCause).
-- All keys but KEYS[6] share the lock's hash tag: on a cluster KEYS[6] is absent (single slot).
-- KEYS[1] lock, KEYS[2] info, KEYS[3] fence, KEYS[4] per-lock history stream, KEYS[5] force-release marker,
-- KEYS[6] audit stream (optional)
-- ARGV[1] release channel, ARGV[2] fence retention ms, ARGV[3] expected SHA-1 of the token ('' = any holder),
-- ARGV[4] expected fence ('0' = any), ARGV[5] audit MAXLEN, ARGV[6] history MAXLEN, ARGV[7] force-released channel,
-- ARGV[8..] audit field/value pairs (name, operator, at)
-- Publishes on ARGV[7]: name US token SHA-1 US new fence US operator (store/ForceReleased).
-- Returns {1, old fence, new fence, history id, audit id or '', token SHA-1, info field/value...} when released,
-- and, without KEYS[6] (Cluster; an application's user that may not write the audit stream), last the record
-- written into the history as a nested array of its field/value items (see the end),
-- {0, 'free' | 'changed', current fence} or {0, 'moved', '0'} when nothing was done (fences as strings),
-- {2, 'wrongtype', key, its type, the type expected} when a key has a type this script cannot write
-- (nothing was done).
-- Fences stay strings: tostring() of a large Lua number would print it in exponent notation.
-- Every key's type is checked before anything is written: Redis keeps a script's earlier writes when a
-- later command fails, so a foreign value at any key (e.g. a SET of the audit stream's name by another
-- program) must stop the script before the lock is deleted, not after.
local expectedTypes = {'string', 'hash', 'string', 'stream', 'hash', 'stream'}
for i = 1, #KEYS do
  local t = redis.call('TYPE', KEYS[i])['ok']
  if t ~= 'none' and t ~= expectedTypes[i] then
    return {2, 'wrongtype', KEYS[i], t, expectedTypes[i]}
  end
end
local fenceText = redis.call('GET', KEYS[3])
if fenceText and not (string.match(fenceText, '^%-?%d+$') and #fenceText < 20) then
  return {2, 'wrongtype', KEYS[3], 'string', 'integer'}
end
-- A sealed audit record (the dashboard's AuditSigner) names the record it follows ('prev'): when another
-- record was appended since, answer {0, 'moved', '0'} and write nothing (the dashboard seals it again).
if KEYS[6] then
  for i = 8, #ARGV - 1, 2 do
    if ARGV[i] == 'prev' then
      local last = redis.call('XREVRANGE', KEYS[6], '+', '-', 'COUNT', 1)
      if (last[1] and last[1][1] or '0-0') ~= ARGV[i + 1] then
        return {0, 'moved', '0'}
      end
    end
  end
end
local token = redis.call('GET', KEYS[1])
local current = redis.call('GET', KEYS[3]) or '0'
if not token then
  -- free here (on Redlock the holder may hold only a majority): waiters listening on this node learn it too
  redis.call('PUBLISH', ARGV[1], '1')
  return {0, 'free', current}
end
-- the lock's value is token US fence US packed holder (acquire.lua); a lock of the older layout holds
-- the token alone and its holder in the :info hash
local fence
local info
local first = string.find(token, '\31', 1, true)
if first then
  local second = string.find(token, '\31', first + 1, true) or (#token + 1)
  fence = string.sub(token, first + 1, second - 1)
  info = {'fence', fence, 'h', string.sub(token, second + 1)}
  token = string.sub(token, 1, first - 1)
else
  fence = redis.call('HGET', KEYS[2], 'fence') or '0'
end
-- The token (its SHA-1) names the acquisition: when it matches, the fence is not compared, because a
-- Redlock node may still show its own phase-1 fence, lower or (clock floor, later answer) higher than
-- the token handed out. Without a token, a fence above the one the operator saw means a newer holder.
if (ARGV[3] ~= '' and redis.sha1hex(token) ~= ARGV[3]) or (ARGV[3] == '' and ARGV[4] ~= '0' and tonumber(fence) > tonumber(ARGV[4])) then
  return {0, 'changed', current}
end
if not info then
  info = redis.call('HGETALL', KEYS[2])
end
local pttl = redis.call('PTTL', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
local newFence = string.format('%d', redis.call('INCR', KEYS[3]))
redis.call('PEXPIRE', KEYS[3], ARGV[2])
local record = {'oldFence', fence, 'newFence', newFence, 'oldToken', string.sub(redis.sha1hex(token), 1, 12)}
for i = 8, #ARGV do
  record[#record + 1] = ARGV[i]
end
-- the packed holder (LockHolder: jvm, acquired-at, source, method, thread) as one field each, like the
-- one-field-per-item hashes of older clients; application, host and pid come from the caller (ARGV)
local packedNames = {'jvm', 'acquiredAt', 'source', 'method', 'thread'}
for i = 1, #info, 2 do
  if info[i] == 'h' then
    local from = 1
    for n = 1, 5 do
      local sep = n < 5 and string.find(info[i + 1], '\31', from, true) or nil
      record[#record + 1] = 'holder.' .. packedNames[n]
      record[#record + 1] = string.sub(info[i + 1], from, sep and sep - 1 or -1)
      if not sep then
        break
      end
      from = sep + 1
    end
  else
    record[#record + 1] = 'holder.' .. info[i]
    record[#record + 1] = info[i + 1]
  end
end
-- the marker outlives the lock's remaining TTL by a minute: the holder's refresh (every TTL/3, retried
-- during outages) finds the token gone within that time, else its validity lapses with its own reason
local operator = ''
local name = ''
for i = 8, #ARGV - 1, 2 do
  if ARGV[i] == 'operator' then
    operator = ARGV[i + 1]
  elseif ARGV[i] == 'name' then
    name = ARGV[i + 1]
  end
end
if pttl < 0 then
  pttl = 0
end
local tokenSha1 = redis.sha1hex(token)
redis.call('DEL', KEYS[5])
redis.call('HSET', KEYS[5], 'token', tokenSha1, 'operator', operator, 'fence', newFence)
redis.call('PEXPIRE', KEYS[5], pttl + 60000)
local historyId = redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[6], '*', 'type', 'force-release', unpack(record))
redis.call('PEXPIRE', KEYS[4], ARGV[2])
local auditId = ''
if KEYS[6] then
  auditId = redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[5], '*', unpack(record))
end
redis.call('PUBLISH', ARGV[1], '1')
redis.call('PUBLISH', ARGV[7], name .. '\31' .. tokenSha1 .. '\31' .. newFence .. '\31' .. operator)
local reply = {1, fence, newFence, historyId, auditId, tokenSha1}
for i = 1, #info do
  reply[#reply + 1] = info[i]
end
-- Without the audit stream here (Cluster: another slot), the caller appends the record to it from this reply
-- (store/ClusterAuditCopy), never from the history entry: applications may write the history. A nested array,
-- last: the info hash's values are strings, so nothing the holder wrote can stand in for it.
if not KEYS[6] then
  reply[#reply + 1] = record
end
return reply
