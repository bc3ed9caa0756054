/**
 * The Lua scripts of the stores: each runs atomically in Redis, so caps, trimming and expiry hold
 * across every instance at once. Time comes from Redis (`TIME`), never from an instance's clock.
 */

/** Redis server time in ms. */
const NOW = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/**
 * Appends one event. KEYS: stream, meta hash. ARGV: data ('' for the priming marker), weight,
 * maxEvents, maxBytes, ttlMs, channel. Drops the oldest events past either cap (never the new
 * one), remembers the newest dropped id (a resume from it loses nothing; from before it, refused),
 * refreshes the expiry, publishes the event to followers. Returns the new entry id.
 */
export const APPEND = `
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

/**
 * Creates a session record (a hash: principal, prefix, version, state) under the caps. KEYS:
 * record, all-sessions zset, principal zset. ARGV: id, principalKey, streamPrefix, ttlMs,
 * maxSessions, maxPerPrincipal ('' = not counted).
 */
export const CREATE = `
${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 'full' end
if ARGV[6] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return 'principal-full' end
end
local ttl = tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'principalKey', ARGV[2], 'streamPrefix', ARGV[3], 'counted', ARGV[6] ~= '' and '1' or '0')
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
if ARGV[6] ~= '' then
  redis.call('ZADD', KEYS[3], now + ttl, ARGV[1])
  redis.call('PEXPIRE', KEYS[3], ttl)
end
return 'created'
`;

/** Reads a record and pushes its expiry back. KEYS: record, all-sessions zset. ARGV: id, ttlMs, principal zset key prefix. */
export const TOUCH = `
local fields = redis.call('HMGET', KEYS[1], 'principalKey', 'streamPrefix', 'protocolVersion', 'state', 'counted')
if not fields[1] then return false end
${NOW}
local ttl = tonumber(ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], 'XX', now + ttl, ARGV[1])
if fields[5] == '1' then
  local principal = ARGV[3] .. fields[1]
  redis.call('ZADD', principal, 'XX', now + ttl, ARGV[1])
  redis.call('PEXPIRE', principal, ttl)
end
return { fields[1], fields[2], fields[3] or '', fields[4] or '' }
`;

/** Sets fields of a live record, keeping its expiry. KEYS: record. ARGV: field, value pairs. */
export const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
`;

/** Deletes a record and its cap entries. KEYS: record, all-sessions zset. ARGV: id, principal zset key prefix. */
export const DELETE = `
local principal = redis.call('HGET', KEYS[1], 'principalKey')
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if principal then redis.call('ZREM', ARGV[2] .. principal, ARGV[1]) end
return 1
`;
