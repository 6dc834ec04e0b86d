-- Release: delete lock + info only if the token matches, then wake waiters in every JVM.
-- KEYS[1] lock, KEYS[2] info
-- ARGV[1] token, ARGV[2] release channel ('' = release quietly: the cleanup of a failed Redlock
-- attempt must not wake waiters, or they retry in step and split the votes again)
-- ARGV[3] (optional) keep ms: > 0 = the holdAtLeast period is not over, so keep lock + info for
-- that long instead of deleting them (they then expire by themselves; no wake-up is sent)
-- Returns 1 if released, 0 if the lock was not ours (expired, force-released, taken by another).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  local keep = tonumber(ARGV[3] or '0')
  if keep and keep > 0 then
    redis.call('PEXPIRE', KEYS[1], keep)
    redis.call('PEXPIRE', KEYS[2], keep)
    return 1
  end
  redis.call('DEL', KEYS[1], KEYS[2])
  if ARGV[2] ~= '' then
    redis.call('PUBLISH', ARGV[2], '1')
  end
  return 1
end
return 0
