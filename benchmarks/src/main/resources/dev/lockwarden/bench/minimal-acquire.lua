-- A floor for BoundsMain only (not used by Lockwarden): the least a Lua acquire can do - read the lock
-- and take it - with no fence, no holder and no busy reply beyond false. KEYS[1] lock; ARGV[1] token,
-- ARGV[2] ttl ms. Returns 1, or false when busy.
if redis.call('GET', KEYS[1]) then
  return false
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
