// The two Lua scripts of fleet mode's limits, each one atomic round trip on Redis (contract, "Fleet mode"):
// `countUsage` is quota.ts's `admit` on the account's usage hash, with Redis's TIME as the one clock, so that
// several servers counting the same account stay exact; `mergeUsage` adds the units a server counted on its own
// while Redis was away (LIMITS_ON_REDIS_FAILURE=local), once only. Both are sent by EVALSHA, with EVAL when Redis
// does not know the script (ioredis's defineCommand: after a restart, say).
import type { Redis } from 'ioredis';
import { redisKeys } from '../accounts/redisKeys.js';
import { WINDOW_MS, type QuotaRefusal } from './quota.js';

/** The UTC calendar of a Lua script: `YYYY-MM` and `YYYY-MM-DD` of epoch milliseconds (Redis's Lua has no os.date). */
const LUA_UTC_DATE = `
local function utc_date(ms)
  -- days since 1970-01-01 to a civil date (H. Hinnant's days_from_civil, inverted)
  local z = math.floor(ms / 86400000) + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  return string.format('%04d-%02d', y, m), string.format('%04d-%02d-%02d', y, m, d)
end
`;

/**
 * KEYS: usage hash, daily hash. ARGV: perMinute, perMonth, units, the counting ledger's tally field.
 * Returns { refusal (0 none, 1 quota, 2 rate), monthCount, windowStart, windowCount, now } after the count.
 * The same rule as quota.ts: the month first, then the window (opened by the first request after the previous one
 * ended); all the units or none; a refusal counts nothing, though it may open a window, as admit's does.
 * The units admitted are also added to the ledger's own field of the hash (`by:<ledger>`, this month's units counted
 * by that ledger), so that a ledger whose answer was lost can tell afterwards whether Redis counted (usageTally.ts). A new month
 * starts the hash afresh, the ledgers' fields with it.
 */
const COUNT_LUA = `${LUA_UTC_DATE}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local month, day = utc_date(now)
local perMinute, perMonth, units = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local u = redis.call('HMGET', KEYS[1], 'month', 'monthCount', 'windowStart', 'windowCount', ARGV[4])
local monthCount, windowStart, windowCount, tally = tonumber(u[2]) or 0, tonumber(u[3]) or 0, tonumber(u[4]) or 0, tonumber(u[5]) or 0
local changed = false
if u[1] ~= month then
  if u[1] then redis.call('DEL', KEYS[1]) end
  monthCount = 0; tally = 0; changed = true
end
if now >= windowStart + ${WINDOW_MS} or now < windowStart - ${WINDOW_MS} then windowStart = now; windowCount = 0; changed = true end
local refusal = 0
if monthCount + units > perMonth then refusal = 1
elseif windowCount + units > perMinute then refusal = 2
elseif units > 0 then
  monthCount = monthCount + units
  windowCount = windowCount + units
  tally = tally + units
  changed = true
  redis.call('HINCRBY', KEYS[2], day, units)
end
if changed then
  redis.call('HSET', KEYS[1], 'month', month, 'monthCount', monthCount, 'windowStart', windowStart, 'windowCount', windowCount, ARGV[4], tally)
end
return { refusal, monthCount, windowStart, windowCount, now }
`;

/**
 * KEYS: usage hash, daily hash, merge marker. ARGV: month (`YYYY-MM`), day (`YYYY-MM-DD`), units, marker lifetime (s).
 * Adds units counted elsewhere to the day and, when it is the usage hash's month (or a later one), to the month; a
 * month already over in Redis keeps its count (the record then holds a later month). The per-minute window is left
 * alone (docs/fleet.md, "Limits"). Returns 1, or 0 when this merge (its marker) was applied before: a merge whose
 * answer was lost is sent again under the same marker and counts once. Units may be negative: a correction for
 * requests Redis counted though their answers were lost and the server decided them on its own (usageTally.ts).
 * A later month starts the hash afresh, as a count does (the ledgers' tally fields go; the window stays).
 */
const MERGE_LUA = `
if not redis.call('SET', KEYS[3], '1', 'NX', 'EX', tonumber(ARGV[4])) then return 0 end
local units = tonumber(ARGV[3])
redis.call('HINCRBY', KEYS[2], ARGV[2], units)
local month = redis.call('HGET', KEYS[1], 'month')
if month == ARGV[1] then
  redis.call('HINCRBY', KEYS[1], 'monthCount', units)
elseif (not month) or month < ARGV[1] then
  local w = redis.call('HMGET', KEYS[1], 'windowStart', 'windowCount')
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'month', ARGV[1], 'monthCount', math.max(units, 0))
  if w[1] then redis.call('HSET', KEYS[1], 'windowStart', w[1], 'windowCount', w[2]) end
end
return 1
`;

/** How long Redis remembers that a merge was applied: far longer than any retry of it. */
const MERGE_MARKER_SECONDS = 86_400;

export type CountReply = [refusal: 0 | 1 | 2, monthCount: number, windowStart: number, windowCount: number, now: number];

export const REFUSALS: ReadonlyArray<QuotaRefusal | undefined> = [undefined, 'quota_exceeded', 'rate_limit_exceeded'];

interface ScriptCommands {
  countUsage(usageKey: string, dailyKey: string, perMinute: number, perMonth: number, units: number, tallyField: string): Promise<CountReply>;
  mergeUsage(usageKey: string, dailyKey: string, markerKey: string, month: string, day: string, units: number, markerSeconds: number): Promise<0 | 1>;
}

/** A connection with the limits' scripts on it. */
export type UsageScripts = Redis & ScriptCommands;

export function withUsageScripts(redis: Redis): UsageScripts {
  redis.defineCommand('countUsage', { lua: COUNT_LUA, numberOfKeys: 2 });
  redis.defineCommand('mergeUsage', { lua: MERGE_LUA, numberOfKeys: 3 });
  return redis as UsageScripts;
}

/** One atomic count on Redis (see COUNT_LUA), its admitted units also added to `tallyField` (usageTally.ts). */
export function countOnRedis(redis: UsageScripts, accountId: string, perMinute: number, perMonth: number, units: number, tallyField: string): Promise<CountReply> {
  return redis.countUsage(redisKeys.usage(accountId), redisKeys.daily(accountId), perMinute, perMonth, units, tallyField);
}

/** What Redis holds of one ledger's tally on an account: the usage hash's month, and the field (0 when absent). */
export async function readTally(redis: Redis, accountId: string, tallyField: string): Promise<{ month: string | null; units: number }> {
  const [month, units] = await redis.hmget(redisKeys.usage(accountId), 'month', tallyField);
  return { month, units: Number(units ?? 0) };
}

/** Adds `units` counted on one server on `day` to Redis, once for a given `mergeId` (see MERGE_LUA). */
export function mergeIntoRedis(redis: UsageScripts, accountId: string, day: string, units: number, mergeId: string): Promise<0 | 1> {
  const marker = redisKeys.usageMerge(accountId, mergeId);
  return redis.mergeUsage(redisKeys.usage(accountId), redisKeys.daily(accountId), marker, day.slice(0, 7), day, units, MERGE_MARKER_SECONDS);
}
