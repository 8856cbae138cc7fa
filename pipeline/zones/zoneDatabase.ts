// A source of zone rules: a release of the IANA tz database with its names (zones and links) and a transition table
// per zone. Two sources exist (contract, "Time zones"): the system's compiled zoneinfo (systemZoneinfo.ts) and the
// pinned npm package (packageZones.ts); zoneRules.ts takes the newer at start-up.
import type { TransitionTable } from './transitionTable.js';

export interface ZoneDatabase {
  /** The IANA release, such as `2026f`. */
  readonly release: string;
  /** Where the rules come from, for /healthz and the logs: a directory of TZif files, or the npm package. */
  readonly source: string;
  /** Every Zone's name, and every link's name with the name it points to (perhaps another link). */
  readonly zones: ReadonlySet<string>;
  readonly links: ReadonlyMap<string, string>;
  /** The transition table of a Zone (not a link), compiled or read on each call: the caller keeps it. */
  table(zone: string): TransitionTable;
}

/** Orders releases by year, then letters (`2026d` < `2026f`; past z a year would go on with two letters). */
export function compareReleases(a: string, b: string): number {
  const [, yearA = '', lettersA = ''] = /^(\d+)([a-z]*)$/.exec(a) ?? [];
  const [, yearB = '', lettersB = ''] = /^(\d+)([a-z]*)$/.exec(b) ?? [];
  if (yearA !== yearB) return Number(yearA) - Number(yearB);
  if (lettersA.length !== lettersB.length) return lettersA.length - lettersB.length;
  return lettersA < lettersB ? -1 : lettersA > lettersB ? 1 : 0;
}
