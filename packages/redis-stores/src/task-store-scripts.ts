/**
 * The Lua scripts of the Redis `TaskStore`: each runs atomically, so transitions, answers,
 * leases and the bound hold across every instance at once. Leases use Redis time (`TIME`), never
 * an instance's clock. Keys, under the prefix P (ARGV[1]): `P t:<id>` (the task hash: owner,
 * method, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs, leaseUntil,
 * expireAt, result and error as JSON), `P t:<id>:in` (outstanding input requests, key -> JSON),
 * `P t:<id>:out` (answers not claimed yet), `P all` (every kept task by creation), `P done`
 * (finished tasks by finish time: evicted first), `P exp` (tasks by expiry), `P owners`
 * (id -> owner) and `P o:<owner>` (an owner's tasks by creation). Keys are derived in the
 * scripts: one Redis node (Redis Cluster is not supported).
 * Every script but CLAIM and DELETE takes ARGV[2] (the lost-lease message) and ARGV[3] (its
 * error as JSON); its own arguments start at ARGV[4].
 */

const PRELUDE = `
local P = ARGV[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function terminal(s) return s == 'completed' or s == 'failed' or s == 'cancelled' end
local function finish(id, h)
  redis.call('DEL', h .. ':in', h .. ':out')
  redis.call('ZADD', P .. 'done', now, id)
end
local function unindex(id)
  local owner = redis.call('HGET', P .. 'owners', id)
  redis.call('ZREM', P .. 'all', id)
  redis.call('ZREM', P .. 'done', id)
  redis.call('ZREM', P .. 'exp', id)
  redis.call('HDEL', P .. 'owners', id)
  if owner then redis.call('ZREM', P .. 'o:' .. owner, id) end
end
local function current(id)
  local h = P .. 't:' .. id
  local f = redis.call('HMGET', h, 'status', 'leaseUntil')
  if not f[1] then return false end
  if not terminal(f[1]) and f[2] and tonumber(f[2]) <= now then
    redis.call('HSET', h, 'status', 'failed', 'statusMessage', ARGV[2], 'error', ARGV[3], 'lastUpdatedAt', now)
    finish(id, h)
    return 'failed'
  end
  return f[1]
end
local function read(id, applied)
  local h = P .. 't:' .. id
  return { redis.call('HGETALL', h), redis.call('HGETALL', h .. ':in'), applied }
end
local function expireWith(h, key)
  local at = redis.call('HGET', h, 'expireAt')
  if at and at ~= '' then redis.call('PEXPIREAT', key, at) end
end
`;

/**
 * ARGV: id, maxTasks, leaseMs, expireAt ('' = none), createdAt, owner, status, then the hash's
 * field/value pairs. Sweeps expired tasks out of the indexes, evicts the longest finished while
 * full (failing lost leases first), and stores the task. Returns 'ok', 'exists' or 'full'.
 */
export const TASK_CREATE = `${PRELUDE}
local id = ARGV[4]
local h = P .. 't:' .. id
if redis.call('EXISTS', h) == 1 then return 'exists' end
local max = tonumber(ARGV[5])
for _, x in ipairs(redis.call('ZRANGEBYSCORE', P .. 'exp', '-inf', now)) do
  redis.call('DEL', P .. 't:' .. x, P .. 't:' .. x .. ':in', P .. 't:' .. x .. ':out')
  unindex(x)
end
if redis.call('ZCARD', P .. 'all') >= max then
  for _, x in ipairs(redis.call('ZRANGE', P .. 'all', 0, -1)) do if not current(x) then unindex(x) end end
end
while redis.call('ZCARD', P .. 'all') >= max do
  local oldest = redis.call('ZRANGE', P .. 'done', 0, 0)
  if #oldest == 0 then return 'full' end
  local x = oldest[1]
  redis.call('DEL', P .. 't:' .. x, P .. 't:' .. x .. ':in', P .. 't:' .. x .. ':out')
  unindex(x)
end
local fields = {}
for i = 11, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', h, 'leaseUntil', now + tonumber(ARGV[6]), 'expireAt', ARGV[7], unpack(fields))
local created = tonumber(ARGV[8])
redis.call('ZADD', P .. 'all', created, id)
redis.call('ZADD', P .. 'o:' .. ARGV[9], created, id)
redis.call('HSET', P .. 'owners', id, ARGV[9])
if ARGV[7] ~= '' then
  redis.call('ZADD', P .. 'exp', ARGV[7], id)
  redis.call('PEXPIREAT', h, ARGV[7])
end
if terminal(ARGV[10]) then redis.call('ZADD', P .. 'done', now, id) end
return 'ok'
`;

/** ARGV: id. Returns false (unknown) or { hash pairs, input pairs, 1 }. */
export const TASK_GET = `${PRELUDE}
if not current(ARGV[4]) then return false end
return read(ARGV[4], 1)
`;

/**
 * ARGV: id, '1' when the input requests are replaced (else '0'), their count n, n key/JSON
 * pairs, then the hash's field/value pairs. Answered keys stay out of the input requests; an
 * `input_required` status with none left is stored `working`. Returns false or { hash, inputs, applied }.
 */
export const TASK_UPDATE = `${PRELUDE}
local id = ARGV[4]
local h = P .. 't:' .. id
local st = current(id)
if not st then return false end
if terminal(st) then return read(id, 0) end
local i = 7
if ARGV[5] == '1' then
  redis.call('DEL', h .. ':in')
  for _ = 1, tonumber(ARGV[6]) do
    if redis.call('HEXISTS', h .. ':out', ARGV[i]) == 0 then redis.call('HSET', h .. ':in', ARGV[i], ARGV[i + 1]) end
    i = i + 2
  end
  expireWith(h, h .. ':in')
end
local fields = {}
for j = i, #ARGV do fields[#fields + 1] = ARGV[j] end
if #fields > 0 then redis.call('HSET', h, unpack(fields)) end
local status = redis.call('HGET', h, 'status')
if status == 'input_required' and redis.call('HLEN', h .. ':in') == 0 then redis.call('HSET', h, 'status', 'working') end
if terminal(status) then finish(id, h) end
return read(id, 1)
`;

/** ARGV: id, at (lastUpdatedAt), then key/JSON pairs. Moves outstanding keys to the answers. Returns false or { hash, inputs, applied }. */
export const TASK_ANSWER = `${PRELUDE}
local id = ARGV[4]
local h = P .. 't:' .. id
local st = current(id)
if not st then return false end
if terminal(st) then return read(id, 0) end
local moved = 0
for i = 6, #ARGV, 2 do
  if redis.call('HDEL', h .. ':in', ARGV[i]) == 1 then
    redis.call('HSET', h .. ':out', ARGV[i], ARGV[i + 1])
    moved = moved + 1
  end
end
if moved > 0 then
  expireWith(h, h .. ':out')
  if st == 'input_required' and redis.call('HLEN', h .. ':in') == 0 then redis.call('HSET', h, 'status', 'working', 'lastUpdatedAt', ARGV[5]) end
end
return read(id, 1)
`;

/** ARGV: prefix, id. Takes the unclaimed answers: key/JSON pairs. */
export const TASK_CLAIM = `
local k = ARGV[1] .. 't:' .. ARGV[2] .. ':out'
local r = redis.call('HGETALL', k)
redis.call('DEL', k)
return r
`;

/** ARGV: leaseMs, then ids. Renews the unfinished ones; returns the others. */
export const TASK_RENEW = `${PRELUDE}
local ended = {}
for i = 5, #ARGV do
  local st = current(ARGV[i])
  if not st or terminal(st) then ended[#ended + 1] = ARGV[i]
  else redis.call('HSET', P .. 't:' .. ARGV[i], 'leaseUntil', now + tonumber(ARGV[4])) end
end
return ended
`;

/** ARGV: prefix, id. */
export const TASK_DELETE = `
local P = ARGV[1]
local id = ARGV[2]
local h = P .. 't:' .. id
local owner = redis.call('HGET', P .. 'owners', id)
redis.call('DEL', h, h .. ':in', h .. ':out')
redis.call('ZREM', P .. 'all', id)
redis.call('ZREM', P .. 'done', id)
redis.call('ZREM', P .. 'exp', id)
redis.call('HDEL', P .. 'owners', id)
if owner then redis.call('ZREM', P .. 'o:' .. owner, id) end
return 1
`;

/** ARGV: owner, start, limit. Returns { more (0/1), the page's { hash, inputs, 1 } }; drops gone ids from the owner's index. */
export const TASK_LIST = `${PRELUDE}
local key = P .. 'o:' .. ARGV[4]
local start = tonumber(ARGV[5])
local limit = tonumber(ARGV[6])
local kept = 0
local page = {}
local more = 0
for _, id in ipairs(redis.call('ZREVRANGE', key, 0, -1)) do
  if current(id) then
    if kept >= start + limit then more = 1
    elseif kept >= start then page[#page + 1] = read(id, 1) end
    kept = kept + 1
  else unindex(id) end
end
return { more, page }
`;
