-- Force-release (operator): delete lock + info whoever holds it, bump the fence so the old
-- holder's token is stale, wake waiters. The caller writes the audit record.
-- KEYS[1] lock, KEYS[2] info, KEYS[3] fence
-- ARGV[1] release channel, ARGV[2] fence retention ms
-- Returns {1, old token, old fence, new fence, info field/value...} or {0} if the lock was free.
local token = redis.call('GET', KEYS[1])
if not token then
  return {0}
end
local info = redis.call('HGETALL', KEYS[2])
local oldFence = redis.call('HGET', KEYS[2], 'fence') or redis.call('GET', KEYS[3]) or '0'
redis.call('DEL', KEYS[1], KEYS[2])
local newFence = redis.call('INCR', KEYS[3])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
redis.call('PUBLISH', ARGV[1], '1')
local reply = {1, token, tostring(oldFence), string.format('%d', newFence)} -- %d: tostring would print 1.8e+15 for clock-floored fences
for i = 1, #info do
  reply[#reply + 1] = info[i]
end
return reply
