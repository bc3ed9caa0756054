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

/** Removes session `id` from the topic sets its topics set (at key `st`) names. Needs `tp`: the topic key prefix. */
const FORGET_TOPICS = `
local function forgetTopics(st, tp, id)
  for _, t in ipairs(redis.call('SMEMBERS', st)) do redis.call('SREM', tp .. t, id) end
  redis.call('DEL', st)
end`;

/**
 * Creates a session record (a hash: principal, prefix, version, state) under the caps, after
 * sweeping expired sessions (the topics of up to 1,000 of them). KEYS: record, all-sessions zset,
 * principal zset. ARGV: id, principalKey, streamPrefix, ttlMs, maxSessions, maxPerPrincipal ('' =
 * not counted), topics-of key prefix, topic key prefix.
 */
export const CREATE = `
${NOW}
${FORGET_TOPICS}
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 1000)) do forgetTopics(ARGV[7] .. old, ARGV[8], old) end
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

/**
 * Reads a record and pushes its expiry back (its topics' key keeps twice the TTL, so the sweep
 * still finds them). KEYS: record, all-sessions zset, topics-of key. ARGV: id, ttlMs, principal
 * zset key prefix.
 */
export const TOUCH = `
local fields = redis.call('HMGET', KEYS[1], 'principalKey', 'streamPrefix', 'protocolVersion', 'state', 'counted')
if not fields[1] then return false end
${NOW}
local ttl = tonumber(ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[3], ttl * 2)
redis.call('ZADD', KEYS[2], 'XX', now + ttl, ARGV[1])
if fields[5] == '1' then
  local principal = ARGV[3] .. fields[1]
  redis.call('ZADD', principal, 'XX', now + ttl, ARGV[1])
  redis.call('PEXPIRE', principal, ttl)
end
return { fields[1], fields[2], fields[3] or '', fields[4] or '' }
`;

/**
 * Sets fields of a live record, keeping its expiry, and replaces its topics. KEYS: record,
 * topics-of key. ARGV: topics as a JSON array ('' = unchanged), topic key prefix, id, ttlMs, then
 * field, value pairs.
 */
export const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] ~= '' then
  local wanted = {}
  for _, t in ipairs(cjson.decode(ARGV[1])) do wanted[t] = true end
  for _, t in ipairs(redis.call('SMEMBERS', KEYS[2])) do
    if not wanted[t] then
      redis.call('SREM', ARGV[2] .. t, ARGV[3])
      redis.call('SREM', KEYS[2], t)
    end
    wanted[t] = nil
  end
  for t in pairs(wanted) do
    redis.call('SADD', ARGV[2] .. t, ARGV[3])
    redis.call('SADD', KEYS[2], t)
  end
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[4]) * 2)
end
if #ARGV > 4 then redis.call('HSET', KEYS[1], unpack(ARGV, 5)) end
return 1
`;

/**
 * The live members of a topic with their stream prefixes, pruning members whose record is gone.
 * KEYS: topic set. ARGV: record key prefix, limit. Returns id, prefix pairs.
 */
export const MEMBERS = `
local out = {}
local limit = tonumber(ARGV[2]) * 2
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local prefix = redis.call('HGET', ARGV[1] .. id, 'streamPrefix')
  if not prefix then redis.call('SREM', KEYS[1], id)
  elseif #out < limit then
    out[#out + 1] = id
    out[#out + 1] = prefix
  end
end
return out
`;

/** Deletes a record, its cap entries and its topics. KEYS: record, all-sessions zset, topics-of key. ARGV: id, principal zset key prefix, topic key prefix. */
export const DELETE = `
${FORGET_TOPICS}
forgetTopics(KEYS[3], ARGV[3], ARGV[1])
local principal = redis.call('HGET', KEYS[1], 'principalKey')
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if principal then redis.call('ZREM', ARGV[2] .. principal, ARGV[1]) end
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
