-- Redlock phase 2: raise the fence counter to at least the token handed out (a monotone max, so
-- running it late or twice is harmless), and record that token in the holder info if we still hold
-- the lock here.
-- KEYS[1] lock, KEYS[2] info, KEYS[3] fence
-- ARGV[1] token, ARGV[2] fence to raise to, ARGV[3] fence retention ms
-- Returns 1 if the lock on this node is still ours, 0 otherwise (the counter is raised either way).
local current = tonumber(redis.call('GET', KEYS[3]) or '0')
if current < tonumber(ARGV[2]) then
  redis.call('SET', KEYS[3], ARGV[2])
end
redis.call('PEXPIRE', KEYS[3], ARGV[3])
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('HSET', KEYS[2], 'fence', ARGV[2])
  return 1
end
return 0
