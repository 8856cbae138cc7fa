// Compiles one zone of the IANA tz database, as the npm package `tzdata` gives it (zic's Zone and Rule lines as
// JSON), into an offset-transition table: the UTC instants where the zone's offset from UTC changes and the offset
// from each on. Pure: the caller hands in the lines; zoneDatabase.ts loads the package and keeps the tables. The
// system's compiled zoneinfo, when newer, is read by tzif.ts instead (docs/time-zones.md).
import { LAST_COMPILED_YEAR, type TransitionTable, transitionTableOf } from './transitionTable.js';

/** A Zone line: offset west of UTC in minutes (the package's sign), rules, format, until (wall clock as UTC ms). */
export type ZoneLine = [westMinutes: string, rules: string, format: string, until: string | null];
/** A Rule line: from, to, type, in, on, at [h, m, s, s|u|null], save in minutes, letter. */
export type RuleLine = [from: string, to: string, type: string, month: string, on: string, at: [string, string, string, string | null], save: string, letter: string];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_MS = 86_400_000;

/** `h:mm` (possibly negative) as seconds. */
function clockSeconds(text: string): number {
  const sign = text.startsWith('-') ? -1 : 1;
  const [h, m = '0', s = '0'] = text.replace(/^-/, '').split(':');
  return sign * (Number(h) * 3600 + Number(m) * 60 + Number(s));
}

function utcDate(year: number, monthIndex: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  return d.getTime();
}

/** The day (UTC ms of its midnight) that a rule's ON field names in a year and month. */
function ruleDay(year: number, monthIndex: number, on: string): number {
  if (/^\d+$/.test(on)) return utcDate(year, monthIndex, Number(on));
  const last = /^last(\w{3})$/.exec(on);
  if (last) {
    const weekday = WEEKDAYS.indexOf(last[1]);
    const end = utcDate(year, monthIndex + 1, 0);
    return end - (((new Date(end).getUTCDay() - weekday + 7) % 7) * DAY_MS);
  }
  const relative = /^(\w{3})([<>]=)(\d+)$/.exec(on);
  if (!relative) throw new Error(`tzdata: rule day ${on} is not understood`);
  const weekday = WEEKDAYS.indexOf(relative[1]);
  const pivot = utcDate(year, monthIndex, Number(relative[3]));
  const pivotWeekday = new Date(pivot).getUTCDay();
  return relative[2] === '>='
    ? pivot + ((weekday - pivotWeekday + 7) % 7) * DAY_MS
    : pivot - ((pivotWeekday - weekday + 7) % 7) * DAY_MS;
}

interface RuleEvent {
  /** The rule's date and time as written, read as if it were UTC. */
  written: number;
  /** How `written` is meant: on the wall clock, in standard time or in UTC. */
  kind: 'wall' | 'standard' | 'utc';
  save: number;
}

function ruleEvents(lines: RuleLine[], fromYear: number, toYear: number): RuleEvent[] {
  const events: RuleEvent[] = [];
  for (const [from, to, , month, on, at, save] of lines) {
    const first = Number(from);
    const last = to === 'only' ? first : to === 'max' ? LAST_COMPILED_YEAR : Number(to);
    const atSeconds = Number(at[0]) * 3600 + Number(at[1]) * 60 + Number(at[2]);
    const kind = at[3] === 'u' ? 'utc' : at[3] === 's' ? 'standard' : 'wall';
    for (let year = Math.max(first, fromYear); year <= Math.min(last, toYear); year++) {
      const day = ruleDay(year, MONTHS.indexOf(month), on);
      events.push({ written: day + atSeconds * 1000, kind, save: Number(save) * 60 });
    }
  }
  return events.sort((a, b) => a.written - b.written);
}

function eventInstant(event: RuleEvent, standard: number, save: number): number {
  if (event.kind === 'utc') return event.written;
  return event.written - (standard + (event.kind === 'wall' ? save : 0)) * 1000;
}

/**
 * The package writes an UNTIL of a bare year (`2007`, meaning 2007-01-01 00:00) as December 31 of that year, a
 * year late (Istanbul would keep Turkish rules through 2007). No Zone line in the database ends at midnight of a
 * December 31 (zic would write the next year instead), so such a value is read as the year it names.
 */
function writtenUntil(ms: number): number {
  const d = new Date(ms);
  const midnightOfDecember31 = d.getUTCMonth() === 11 && d.getUTCDate() === 31 && ms % DAY_MS === 0;
  return midnightOfDecember31 ? utcDate(d.getUTCFullYear(), 0, 1) : ms;
}

const yearOf = (ms: number): number => new Date(ms).getUTCFullYear();

/** The transition table of a zone from its Zone lines and the Rule lines they name. */
export function compileZone(zoneLines: ZoneLine[], rules: Record<string, RuleLine[]>): TransitionTable {
  // Two changes at one instant: the later line wins (transitionTableOf).
  const changes: Array<[number, number]> = [];
  let start = -Infinity;
  for (const [west, ruleName, , untilText] of zoneLines) {
    const standard = -Math.round(Number(west) * 60);
    const untilWall = untilText === null ? Infinity : writtenUntil(Number(untilText));
    let save = 0;
    if (ruleName === '-' || /^-?\d+:\d+$/.test(ruleName)) {
      save = ruleName === '-' ? 0 : clockSeconds(ruleName);
      changes.push([start, standard + save]);
    } else {
      const lines = rules[ruleName];
      if (!lines) throw new Error(`tzdata: no rules named ${ruleName}`);
      const fromYear = start === -Infinity ? 1800 : yearOf(start) - 1;
      const toYear = untilWall === Infinity ? LAST_COMPILED_YEAR : Math.min(yearOf(untilWall) + 1, LAST_COMPILED_YEAR);
      const events = ruleEvents(lines, fromYear, toYear);
      let i = 0;
      // The save in force when the line starts is that of the latest rule change before it.
      for (; i < events.length && eventInstant(events[i], standard, save) <= start; i++) save = events[i].save;
      changes.push([start, standard + save]);
      for (; i < events.length; i++) {
        const instant = eventInstant(events[i], standard, save);
        if (instant >= untilWall - (standard + save) * 1000) break;
        save = events[i].save;
        changes.push([instant, standard + save]);
      }
    }
    if (untilWall === Infinity) break;
    start = untilWall - (standard + save) * 1000;
  }
  return transitionTableOf(changes);
}
