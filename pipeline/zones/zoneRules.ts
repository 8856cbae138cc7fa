// The one source of time-zone rules for every wall clock the service prints (API, store, pages, precompute): the
// newest IANA tz database at hand, taken once per thread at start-up: the system's compiled zoneinfo when its release
// is at least the pinned npm package's, the package otherwise; never the runtime's ICU data, which lags behind IANA
// (contract, "Time zones"; docs/time-zones.md).
import { readFileSync } from 'node:fs';
import { packageZoneDatabase } from './packageZones.js';
import { systemZoneDatabase } from './systemZoneinfo.js';
import { offsetAt, type TransitionTable } from './transitionTable.js';
import { compareReleases, type ZoneDatabase } from './zoneDatabase.js';

/** The system's database when it is as new as the package's, else the package's. */
export function newestZoneDatabase(system: ZoneDatabase | undefined, pinned: ZoneDatabase): ZoneDatabase {
  return system && compareReleases(system.release, pinned.release) >= 0 ? system : pinned;
}

const pinned = packageZoneDatabase();
const database = newestZoneDatabase(systemZoneDatabase(), pinned);

/** The IANA release the rules come from, such as `2026f`. */
export const TZDATA_VERSION: string = database.release;
/** Where they come from: the system's zoneinfo directory, or `npm tzdata <version>`. */
export const TZDATA_SOURCE: string = database.source;
/** True where the system has no compiled zoneinfo as new as the package: the fallback, which the server announces. */
export const TZDATA_FROM_PACKAGE: boolean = database === pinned;

/** zone.tab: each country's zones, by the names the tz database gives them there. */
const zoneCountries: Readonly<Record<string, string>> = JSON.parse(
  readFileSync(new URL('../../data/curated/zone-countries.json', import.meta.url), 'utf8'),
);

/** The country whose zone it is (the tz database's zone.tab); undefined for `Etc/*` and other non-country zones. */
export function countryOfZone(zone: string): string | undefined {
  return zoneCountries[zone];
}

/** The Zone a name finally stands for, following links. */
export function zoneOf(name: string): string {
  let target = name;
  for (let hops = 0; database.links.has(target) && hops < 8; hops++) target = database.links.get(target)!;
  return target;
}

/**
 * Canonical names, by the folded spelling (`europe/berlin`). A Zone is its own canonical name. A link resolves to
 * its Zone (`Asia/Calcutta` → `Asia/Kolkata`, `US/Eastern` → `America/New_York`), except a link that zone.tab uses
 * as a country's own zone (`Europe/Oslo` in a database without backzone): IANA merged those into a neighbour's Zone
 * because their clocks agree since 1970, but people there name their own zone, and we answer with that name.
 */
const canonicalByFolded = new Map<string, string>();
for (const name of database.zones) canonicalByFolded.set(name.toLowerCase(), name);
for (const name of database.links.keys()) canonicalByFolded.set(name.toLowerCase(), countryOfZone(name) ? name : zoneOf(name));

/**
 * The canonical spelling of an IANA zone name or link, case-insensitively (`europe/berlin` → `Europe/Berlin`,
 * `Asia/Calcutta` → `Asia/Kolkata`), or undefined when the database does not know it.
 */
export function canonicalZoneName(name: string): string | undefined {
  return canonicalByFolded.get(name.toLowerCase());
}

/** Every name the database knows (zones and links), as it spells them. */
export function knownZoneNames(): string[] {
  return [...database.zones, ...database.links.keys()];
}

const tables = new Map<string, TransitionTable>();

/** The transition table of a zone or link (read or compiled once per thread, on first use). */
export function transitionTable(zoneName: string): TransitionTable {
  let table = tables.get(zoneName);
  if (!table) {
    const target = zoneOf(canonicalZoneName(zoneName) ?? zoneName);
    if (!database.zones.has(target)) throw new Error(`Unknown time zone ${zoneName}`);
    table = tables.get(target) ?? database.table(target);
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
