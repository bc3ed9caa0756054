/**
 * The Lua scripts of the session store: records, their caps (all sessions, per principal, per
 * fair-share holder), topics and eviction, each atomic in Redis across every instance.
 */
import { NOW } from "./scripts";

/** Removes session `id` from the topic sets its topics set (at key `st`) names. Needs `tp`: the topic key prefix. */
const FORGET_TOPICS = `
local function forgetTopics(st, tp, id)
  for _, t in ipairs(redis.call('SMEMBERS', st)) do redis.call('SREM', tp .. t, id) end
  redis.call('DEL', st)
end`;

/**
 * Creates a session record (a hash: principal, holder, prefix, version, state) under the caps,
 * after sweeping expired sessions (the topics of up to 1,000 of them). KEYS: record, all-sessions
 * zset, principal zset, holder zset (the principal's for an authenticated holder), holders set
 * (3 random members whose zset expired are pruned). ARGV: id, principalKey, streamPrefix, ttlMs,
 * maxSessions, maxPerPrincipal ('' = not counted), topics-of key prefix, topic key prefix, holder,
 * holder zset key prefix.
 */
export const CREATE = `
${NOW}
${FORGET_TOPICS}
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 1000)) do forgetTopics(ARGV[7] .. old, ARGV[8], old) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
for _, h in ipairs(redis.call('SRANDMEMBER', KEYS[5], 3)) do
  if redis.call('EXISTS', ARGV[10] .. h) == 0 then redis.call('SREM', KEYS[5], h) end
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 'full' end
if ARGV[6] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return 'principal-full' end
end
local ttl = tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'principalKey', ARGV[2], 'streamPrefix', ARGV[3], 'counted', ARGV[6] ~= '' and '1' or '0', 'holder', ARGV[9])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
if ARGV[6] == '' or KEYS[4] ~= KEYS[3] then
  redis.call('ZADD', KEYS[4], now + ttl, ARGV[1])
  redis.call('PEXPIRE', KEYS[4], ttl)
end
redis.call('SADD', KEYS[5], ARGV[9])
if ARGV[6] ~= '' then
  redis.call('ZADD', KEYS[3], now + ttl, ARGV[1])
  redis.call('PEXPIRE', KEYS[3], ttl)
end
return 'created'
`;

/**
 * Reads a record and pushes its expiry back (its topics' key keeps twice the TTL, so the sweep
 * still finds them). KEYS: record, all-sessions zset, topics-of key. ARGV: id, ttlMs, principal
 * (and holder) zset key prefix; an authenticated holder's zset is its principal's.
 */
export const TOUCH = `
local fields = redis.call('HMGET', KEYS[1], 'principalKey', 'streamPrefix', 'protocolVersion', 'state', 'counted', 'holder')
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
if fields[6] and (fields[5] ~= '1' or fields[6] ~= fields[1]) then
  local holder = ARGV[3] .. fields[6]
  redis.call('ZADD', holder, 'XX', now + ttl, ARGV[1])
  redis.call('PEXPIRE', holder, ttl)
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

/** Removes record `id` (key `rk`), its cap entries and its topics. Needs FORGET_TOPICS. */
const DROP = `
local function drop(rk, all, id, pp, hp, st, tp)
  forgetTopics(st, tp, id)
  local fields = redis.call('HMGET', rk, 'principalKey', 'holder')
  redis.call('DEL', rk)
  redis.call('ZREM', all, id)
  if fields[1] then redis.call('ZREM', pp .. fields[1], id) end
  if fields[2] then redis.call('ZREM', hp .. fields[2], id) end
end`;

/**
 * Deletes a record, its cap entries and its topics. KEYS: record, all-sessions zset, topics-of
 * key. ARGV: id, principal zset key prefix, topic key prefix, holder zset key prefix.
 */
export const DELETE = `
${FORGET_TOPICS}
${DROP}
drop(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[4], KEYS[3], ARGV[3])
return 1
`;

/**
 * Evicts by fair share: the least recently touched live record (lowest expiry) of the holder with
 * the most live records (ties: the holder whose oldest record is oldest), pruning expired entries
 * and empty holders on the way; O(holders). KEYS: all-sessions zset, holders set. ARGV: record,
 * principal zset, holder zset (the same), topics-of and topic key prefixes. Returns the id, or false.
 */
export const EVICT = `
${NOW}
${FORGET_TOPICS}
${DROP}
local best, count, oldest
for _, h in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local k = ARGV[3] .. h
  redis.call('ZREMRANGEBYSCORE', k, '-inf', now)
  local first = redis.call('ZRANGE', k, 0, 0, 'WITHSCORES')
  if #first == 0 then redis.call('SREM', KEYS[2], h) else
    local n = redis.call('ZCARD', k)
    local score = tonumber(first[2])
    if not best or n > count or (n == count and score < oldest) then best, count, oldest = first[1], n, score end
  end
end
if not best then return false end
drop(ARGV[1] .. best, KEYS[1], best, ARGV[2], ARGV[3], ARGV[4] .. best, ARGV[5])
return best
`;
