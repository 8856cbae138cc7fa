// The pinned npm package `tzdata`: zic's Zone and Rule lines as JSON, compiled here (tzCompile.ts). The fallback
// where the system has no compiled zoneinfo as new (docs/time-zones.md says what its JSON cannot express).
import { createRequire } from 'node:module';
import { compileZone, type RuleLine, type ZoneLine } from './tzCompile.js';
import type { ZoneDatabase } from './zoneDatabase.js';

interface TzdataPackage {
  version: string;
  /** Zone lines by name, or the target's name for a link. */
  zones: Record<string, ZoneLine[] | string>;
  rules: Record<string, RuleLine[]>;
}

const require = createRequire(import.meta.url);

export function packageZoneDatabase(): ZoneDatabase {
  const data = require('tzdata/timezone-data.json') as TzdataPackage;
  const { version: packageVersion } = require('tzdata/package.json') as { version: string };
  const zones = new Set<string>();
  const links = new Map<string, string>();
  for (const [name, entry] of Object.entries(data.zones)) {
    if (typeof entry === 'string') links.set(name, entry);
    else zones.add(name);
  }
  return {
    release: data.version,
    source: `npm tzdata ${packageVersion}`,
    zones,
    links,
    table: (zone) => compileZone(data.zones[zone] as ZoneLine[], data.rules),
  };
}
