/**
 * The Lua scripts of the stores: each runs atomically in Redis, so caps, trimming and expiry hold
 * across every instance at once. Time comes from Redis (`TIME`), never from an instance's clock.
 */

/** Redis server time in ms. */
export const NOW = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/**
 * Appends one event. KEYS: stream, meta hash. ARGV: data ('' for the priming marker), weight,
 * maxEvents, maxBytes, ttlMs, channel. Drops the oldest events past either cap (never the new
 * one), remembers the newest dropped id (a resume from it loses nothing; from before it, refused),
 * refreshes the expiry, publishes the event to followers. Returns the new entry id. An ended stream
 * takes no more events (an error): its request was answered already, e.g. by the instance that
 * took it over from one presumed dead, so a late answer of the first never reaches the client.
 */
export const APPEND = `
if redis.call('HGET', KEYS[2], 'ended') == '1' then return redis.error_reply('ENDED the stream was ended (its request was answered by another instance)') end
local id
if ARGV[1] == '' then id = redis.call('XADD', KEYS[1], '*', 'p', '1', 's', ARGV[2])
else id = redis.call('XADD', KEYS[1], '*', 'm', ARGV[1], 's', ARGV[2]) end
local bytes = redis.call('HINCRBY', KEYS[2], 'bytes', ARGV[2])
local len = redis.call('XLEN', KEYS[1])
local maxEvents = tonumber(ARGV[3])
local maxBytes = tonumber(ARGV[4])
while len > 1 and (len > maxEvents or bytes > maxBytes) do
  local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  local size = 0
  for i = 1, #first[2], 2 do if first[2][i] == 's' then size = tonumber(first[2][i + 1]) end end
  redis.call('XDEL', KEYS[1], first[1])
  redis.call('HSET', KEYS[2], 'dropped', first[1])
  bytes = redis.call('HINCRBY', KEYS[2], 'bytes', -size)
  len = len - 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
if ARGV[1] ~= '' then redis.call('PUBLISH', ARGV[6], id .. ' ' .. ARGV[1]) end
return id
`;

/**
 * Replays after an entry id. KEYS: stream, meta hash. ARGV: entry id. Returns
 * { found ('1'/'0'), ended ('1'/'0'), entries after the id }; found is '0' when the id is not held
 * and is not the newest dropped one (unknown, or events after it were dropped).
 */
export const REPLAY = `
local held = redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1])
local meta = redis.call('HMGET', KEYS[2], 'dropped', 'ended')
local ended = meta[2] == '1' and '1' or '0'
if #held == 0 and meta[1] ~= ARGV[1] then return { '0', ended, {} } end
return { '1', ended, redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+') }
`;

/** Ends a stream. KEYS: meta hash. ARGV: channel, ttlMs. */
export const END = `
redis.call('HSET', KEYS[1], 'ended', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PUBLISH', ARGV[1], 'end')
return 1
`;

/** Records a version unless it is the last one. KEYS: version key. ARGV: version, ttlMs. Returns 1 when it changed. */
export const ANNOUNCE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** Adds an outbound request id to a journaled request (at most 100). KEYS: journal hash. ARGV: stream id, request id. */
export const OUTBOUND = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local field = 'o:' .. ARGV[1]
local old = redis.call('HGET', KEYS[1], field)
if not old then redis.call('HSET', KEYS[1], field, ARGV[2]) return 1 end
local _, commas = string.gsub(old, ',', '')
if commas >= 99 then return 0 end
redis.call('HSET', KEYS[1], field, old .. ',' .. ARGV[2])
return 1
`;

/**
 * Claims the journals of every instance but ARGV[1] whose lease expired, atomically (each entry
 * once). KEYS: instances set. ARGV: this instance, key prefix. Returns field, value pairs.
 */
export const TAKE_OVER = `
local out = {}
for _, inst in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if inst ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. 'lease:' .. inst) == 0 then
    local journal = ARGV[2] .. 'jn:' .. inst
    for _, v in ipairs(redis.call('HGETALL', journal)) do out[#out + 1] = v end
    redis.call('DEL', journal)
    redis.call('SREM', KEYS[1], inst)
  end
end
return out
`;
