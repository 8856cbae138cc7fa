// The system's compiled tz database: the TZif files zic wrote under /usr/share/zoneinfo (Debian's `tzdata`, which
// apt keeps current; `TZDIR` names another directory), with `tzdata.zi` beside them, zic's input in one file, whose
// first line names the release and whose Z and L lines name every zone and link. Links are followed to their zone's
// file by name, so a link whose file a distribution leaves out (Debian's tzdata-legacy) still resolves.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readTzif } from './tzif.js';
import type { ZoneDatabase } from './zoneDatabase.js';

export const SYSTEM_ZONEINFO = '/usr/share/zoneinfo';

export interface ZoneNames {
  release: string;
  zones: Set<string>;
  links: Map<string, string>;
}

/** The release and names of a `tzdata.zi` text. */
export function readTzdataZi(text: string): ZoneNames {
  const release = /^# version (\S+)/.exec(text)?.[1];
  if (!release) throw new Error('tzdata.zi names no release on its first line');
  const zones = new Set<string>();
  const links = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('Z ')) zones.add(line.split(' ')[1]);
    else if (line.startsWith('L ')) {
      const [, target, name] = line.split(' ');
      links.set(name, target);
    }
  }
  return { release, zones, links };
}

/** The tz database compiled in `directory`, or undefined when it holds no readable `tzdata.zi`. */
export function systemZoneDatabase(directory: string = process.env.TZDIR || SYSTEM_ZONEINFO): ZoneDatabase | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(directory, 'tzdata.zi'), 'utf8');
  } catch {
    return undefined;
  }
  const { release, zones, links } = readTzdataZi(text);
  return {
    release,
    source: directory,
    zones,
    links,
    table: (zone) => readTzif(readFileSync(path.join(directory, zone))),
  };
}
