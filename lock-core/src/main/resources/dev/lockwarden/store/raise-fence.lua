-- Redlock phase 2: raise the fence counter to at least the token handed out (a monotone max, so
-- running it late or twice is harmless), and record that token as the lock's fence if we still hold
-- the lock here: in the lock's value (token US fence US packed holder, acquire.lua; the TTL is kept),
-- or, for a lock of the older layout (the token alone), in its :info hash.
-- KEYS[1] lock, KEYS[2] info (older layout), KEYS[3] fence
-- ARGV[1] token, ARGV[2] fence to raise to, ARGV[3] fence retention ms
-- Returns 1 if the lock on this node is still ours, 0 otherwise (the counter is raised either way).
local current = tonumber(redis.call('GET', KEYS[3]) or '0')
if current < tonumber(ARGV[2]) then
  redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3]) -- raise and renew the retention in one command
else
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
end
if ARGV[1] == '' then
  return 0
end
local v = redis.call('GET', KEYS[1])
if not v then
  return 0
end
local n = #ARGV[1]
if string.byte(v, n + 1) == 31 and string.sub(v, 1, n) == ARGV[1] then
  local sep = string.find(v, '\31', n + 2, true)
  redis.call('SET', KEYS[1], ARGV[1] .. '\31' .. ARGV[2] .. string.sub(v, sep), 'KEEPTTL')
  return 1
end
if v == ARGV[1] then
  redis.call('HSET', KEYS[2], 'fence', ARGV[2])
  return 1
end
return 0
