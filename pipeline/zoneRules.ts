// The one source of time-zone rules: the IANA tz database from the pinned npm package `tzdata`, compiled per zone
// into offset-transition tables on first use. Every wall clock the service prints (API, store, precompute) comes
// from here, never from the runtime's ICU data, which lags behind IANA (contract, "Time zones").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { compileZone, offsetAt, type RuleLine, type TransitionTable, type ZoneLine } from './tzCompile.js';

interface TzdataPackage {
  version: string;
  /** Zone lines by name, or the target's name for a link. */
  zones: Record<string, ZoneLine[] | string>;
  rules: Record<string, RuleLine[]>;
}

const data = createRequire(import.meta.url)('tzdata/timezone-data.json') as TzdataPackage;

/** The IANA release the rules come from, such as `2026d`. */
export const TZDATA_VERSION: string = data.version;

/** zone.tab: each country's zones, by the names the tz database gives them there. */
const zoneCountries: Readonly<Record<string, string>> = JSON.parse(
  readFileSync(new URL('../data/curated/zone-countries.json', import.meta.url), 'utf8'),
);

/** The country whose zone it is (the tz database's zone.tab); undefined for `Etc/*` and other non-country zones. */
export function countryOfZone(zone: string): string | undefined {
  return zoneCountries[zone];
}

/** The Zone a name finally stands for, following links. */
export function zoneOf(name: string): string {
  let target = name;
  for (let hops = 0; typeof data.zones[target] === 'string' && hops < 8; hops++) target = data.zones[target] as string;
  return target;
}

/**
 * Canonical names, by the folded spelling (`europe/berlin`). A Zone is its own canonical name. A link resolves to
 * its Zone (`Asia/Calcutta` → `Asia/Kolkata`, `US/Eastern` → `America/New_York`), except a link that zone.tab uses
 * as a country's own zone (`Europe/Oslo`, `Asia/Kuala_Lumpur`): IANA merged those into a neighbour's Zone because
 * their clocks agree since 1970, but people there name their own zone, and we answer with that name.
 */
const canonicalByFolded = new Map<string, string>();
for (const name of Object.keys(data.zones)) {
  const canonical = typeof data.zones[name] === 'string' && !countryOfZone(name) ? zoneOf(name) : name;
  canonicalByFolded.set(name.toLowerCase(), canonical);
}

/**
 * The canonical spelling of an IANA zone name or link, case-insensitively (`europe/berlin` → `Europe/Berlin`,
 * `Asia/Calcutta` → `Asia/Kolkata`), or undefined when the database does not know it.
 */
export function canonicalZoneName(name: string): string | undefined {
  return canonicalByFolded.get(name.toLowerCase());
}

/** Every name the database knows (zones and links), as it spells them. */
export function knownZoneNames(): string[] {
  return Object.keys(data.zones);
}

const tables = new Map<string, TransitionTable>();

/** The compiled transition table of a zone or link (compiled once per process, on first use). */
export function transitionTable(zoneName: string): TransitionTable {
  let table = tables.get(zoneName);
  if (!table) {
    const target = zoneOf(canonicalZoneName(zoneName) ?? zoneName);
    const lines = data.zones[target];
    if (lines === undefined || typeof lines === 'string') throw new Error(`Unknown time zone ${zoneName}`);
    table = tables.get(target) ?? compileZone(lines, data.rules);
    tables.set(target, table);
    tables.set(zoneName, table);
  }
  return table;
}

// Lookups come in runs for one zone (a day's times, a month, a precompute job): the last zone's table is at hand.
let lastZone: string | undefined;
let lastTable: TransitionTable | undefined;

/** Offset from UTC in seconds (east positive) of `zoneName` at the instant `ms`. */
export function offsetSeconds(zoneName: string, ms: number): number {
  if (zoneName !== lastZone) {
    lastTable = transitionTable(zoneName);
    lastZone = zoneName;
  }
  return offsetAt(lastTable!, ms);
}
