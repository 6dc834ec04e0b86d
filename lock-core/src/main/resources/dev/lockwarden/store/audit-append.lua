-- Appends a sealed audit record (the dashboard's AuditSigner) to the audit stream only if the stream's last record
-- is still the one the record names as previous; on Redis Cluster, where the force-release script cannot reach
-- the audit stream (another hash slot), this is the record's second step.
-- KEYS[1] audit stream; ARGV[1] expected last id ('0-0' = empty), ARGV[2] MAXLEN, ARGV[3..] field/value pairs
-- Returns the new record's id, or false when another record was appended since (nothing written).
local t = redis.call('TYPE', KEYS[1])['ok']
if t ~= 'none' and t ~= 'stream' then
  return redis.error_reply('WRONGTYPE ' .. KEYS[1] .. ' is a ' .. t .. ', not a stream')
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if (last[1] and last[1][1] or '0-0') ~= ARGV[1] then
  return false
end
local record = {}
for i = 3, #ARGV do
  record[#record + 1] = ARGV[i]
end
return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', unpack(record))
