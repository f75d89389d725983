// The Lua scripts of the Redis room store. Each runs atomically in Redis, so two processes admitting
// people to one room at once cannot both take its last place. Members are JSON in a hash per room,
// keyed by peerId, with the process that holds them (`process`) and when their connection took the
// place (`connectedAt`, ms).

// Drops members whose process has no heartbeat, keeping their JSON in the Lua table gone.
// ARGV[6] is the heartbeat key prefix.
const pruneDeadMembers = `
local gone = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local m = cjson.decode(all[i + 1])
  if m.process and redis.call('EXISTS', ARGV[6] .. m.process) == 0 then
    redis.call('HDEL', KEYS[1], all[i])
    table.insert(gone, all[i + 1])
  end
end
`;

// KEYS[1] the room's member hash. ARGV: peerId, member JSON, capacity, userId, ttl seconds,
// heartbeat key prefix, the host's userId ('' for none).
// Answers {status, #gone, #replaced, gone..., replaced..., others...}, or {'full'} / {'taken'}.
// One place per account: the same person's other sessionIds give their place to this one, so a takeover
// is admitted even in a full room. The host (a session's teacher, an ad hoc room's creator) is admitted
// even when the room is full.
export const joinScript = `${pruneDeadMembers}
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing and tostring(cjson.decode(existing).userId) ~= ARGV[4] then return {'taken'} end
local places = redis.call('HGETALL', KEYS[1])
local replacedIds, replaced = {}, {}
for i = 1, #places, 2 do
  if places[i] ~= ARGV[1] and tostring(cjson.decode(places[i + 1]).userId) == ARGV[4] then
    table.insert(replacedIds, places[i])
    table.insert(replaced, places[i + 1])
  end
end
if not existing and #replaced == 0 and ARGV[4] ~= ARGV[7] and #places / 2 >= tonumber(ARGV[3]) then return {'full'} end
for _, id in ipairs(replacedIds) do redis.call('HDEL', KEYS[1], id) end
local result = {existing and 'rejoined' or 'joined', #gone, #replaced}
for _, m in ipairs(gone) do table.insert(result, m) end
for _, m in ipairs(replaced) do table.insert(result, m) end
local members = redis.call('HGETALL', KEYS[1])
for i = 1, #members, 2 do if members[i] ~= ARGV[1] then table.insert(result, members[i + 1]) end end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return result
`;

// KEYS[1] the member hash. ARGV: peerId, connectionId ('' for any), userId ('' for any), new connectionId
// ('' to remove), the process that holds it from now on, when the new connection took it (ms).
export const updateScript = `
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if not existing then return false end
local member = cjson.decode(existing)
if ARGV[2] ~= '' and member.connectionId ~= ARGV[2] then return false end
if ARGV[3] ~= '' and tostring(member.userId) ~= ARGV[3] then return false end
if ARGV[4] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return existing
end
member.connectionId = ARGV[4]
member.process = ARGV[5]
member.connectedAt = tonumber(ARGV[6])
local updated = cjson.encode(member)
redis.call('HSET', KEYS[1], ARGV[1], updated)
return updated
`;

// Puts one process's members of a room back after Redis lost them (it restarted empty) or missed some
// of their comings and goings (they happened while it was away). The same rules as a join, decided
// again against what other processes have put back meanwhile.
// KEYS[1] the member hash. ARGV: processId, capacity, the host's userId ('' for none), ttl seconds,
// then the JSON of each member this process holds there, in the order they joined.
// Answers one status per member, then the JSON of other processes' members this restore displaced:
//   kept      the place was still there (or this process's own): it is this connection's again
//   restored  put back
//   full      the room filled up meanwhile
//   taken     the peerId is someone else's now
//   moved     the same peer holds it from a newer connection on another process
//   replaced  the same account holds another place from a newer connection
// Members recorded as this process's that it no longer holds left while Redis was away: dropped.
export const restoreScript = `
local mine = {}
for i = 5, #ARGV do mine[cjson.decode(ARGV[i]).peerId] = true end
local before = redis.call('HGETALL', KEYS[1])
for i = 1, #before, 2 do
  if cjson.decode(before[i + 1]).process == ARGV[1] and not mine[before[i]] then redis.call('HDEL', KEYS[1], before[i]) end
end
local answer, displaced = {}, {}
for i = 5, #ARGV do
  local member = cjson.decode(ARGV[i])
  local user = tostring(member.userId)
  local since = member.connectedAt or 0
  local status
  local existing = redis.call('HGET', KEYS[1], member.peerId)
  if existing then
    local held = cjson.decode(existing)
    if tostring(held.userId) ~= user then status = 'taken'
    elseif held.process ~= ARGV[1] and (held.connectedAt or 0) > since then status = 'moved'
    else status = 'kept' end
  else
    local places = redis.call('HGETALL', KEYS[1])
    local newer, olderIds, older = false, {}, {}
    for j = 1, #places, 2 do
      local other = cjson.decode(places[j + 1])
      if tostring(other.userId) == user then
        if (other.connectedAt or 0) > since then newer = true
        else
          table.insert(olderIds, places[j])
          table.insert(older, places[j + 1])
        end
      end
    end
    if newer then status = 'replaced'
    elseif #older == 0 and user ~= ARGV[3] and #places / 2 >= tonumber(ARGV[2]) then status = 'full'
    else
      for _, id in ipairs(olderIds) do redis.call('HDEL', KEYS[1], id) end
      for _, m in ipairs(older) do table.insert(displaced, m) end
      status = 'restored'
    end
  end
  if status == 'kept' or status == 'restored' then redis.call('HSET', KEYS[1], member.peerId, ARGV[i]) end
  table.insert(answer, status)
end
if redis.call('HLEN', KEYS[1]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
for _, m in ipairs(displaced) do table.insert(answer, m) end
return answer
`;
