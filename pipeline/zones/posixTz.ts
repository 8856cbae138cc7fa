// A POSIX TZ string, as the footer of a TZif file gives the rule for instants after its last transition (RFC 8536,
// 3.3, with its extensions: hours up to 167 and negative in a rule's time). Pure: it parses the string and lists the
// transitions it makes, year by year, up to the last year the service compiles.
import { LAST_COMPILED_YEAR } from './transitionTable.js';

/** When in a year a change happens: the day, and the local time (seconds) on it. */
interface RuleDate {
  /** `J`: day 1–365, February 29 never counted; `n`: day 0–365, counted; `M`: month, week 1–5 (5 = last), weekday. */
  kind: 'J' | 'n' | 'M';
  day: number;
  month: number;
  week: number;
  seconds: number;
}

export interface PosixTz {
  /** Offsets east of UTC in seconds (POSIX writes them west of UTC). */
  standard: number;
  daylight?: number;
  start?: RuleDate;
  end?: RuleDate;
}

/** A cursor over the string, with the small readers the grammar needs. */
class Reader {
  at = 0;
  constructor(readonly text: string) {}
  fail(): never {
    throw new Error(`TZ string ${JSON.stringify(this.text)} is not understood at ${this.at}`);
  }
  peek(): string {
    return this.text[this.at] ?? '';
  }
  done(): boolean {
    return this.at === this.text.length;
  }
  /** An abbreviation: letters, or anything but `>` inside angle brackets. */
  name(): void {
    const match = /^(<[^>]*>|[A-Za-z]{3,})/.exec(this.text.slice(this.at)) ?? this.fail();
    this.at += match[0].length;
  }
  /** `[+-]hh[:mm[:ss]]` as signed seconds. */
  clock(): number {
    const match = /^([+-]?)(\d{1,3})(?::(\d{1,2}))?(?::(\d{1,2}))?/.exec(this.text.slice(this.at)) ?? this.fail();
    this.at += match[0].length;
    const seconds = Number(match[2]) * 3600 + Number(match[3] ?? 0) * 60 + Number(match[4] ?? 0);
    return match[1] === '-' ? -seconds : seconds;
  }
  number(): number {
    const match = /^\d+/.exec(this.text.slice(this.at)) ?? this.fail();
    this.at += match[0].length;
    return Number(match[0]);
  }
  expect(char: string): void {
    if (this.peek() !== char) this.fail();
    this.at++;
  }
  ruleDate(): RuleDate {
    const date: RuleDate = { kind: 'n', day: 0, month: 0, week: 0, seconds: 7200 };
    if (this.peek() === 'M') {
      this.at++;
      date.kind = 'M';
      date.month = this.number();
      this.expect('.');
      date.week = this.number();
      this.expect('.');
      date.day = this.number();
    } else {
      if (this.peek() === 'J') {
        this.at++;
        date.kind = 'J';
      }
      date.day = this.number();
    }
    if (this.peek() === '/') {
      this.at++;
      date.seconds = this.clock();
    }
    return date;
  }
}

export function parsePosixTz(text: string): PosixTz {
  const reader = new Reader(text);
  reader.name();
  const tz: PosixTz = { standard: -reader.clock() };
  if (reader.done()) return tz;
  reader.name();
  tz.daylight = reader.peek() === ',' || reader.done() ? tz.standard + 3600 : -reader.clock();
  // A daylight name with no rule: POSIX leaves the rule to the implementation; zic never writes one.
  if (reader.done()) reader.fail();
  reader.expect(',');
  tz.start = reader.ruleDate();
  reader.expect(',');
  tz.end = reader.ruleDate();
  if (!reader.done()) reader.fail();
  return tz;
}

const DAY_MS = 86_400_000;
const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Midnight (as if UTC, ms) of the day a rule names in a year. */
function ruleDay(year: number, date: RuleDate): number {
  const january1 = Date.UTC(year, 0, 1);
  if (date.kind === 'n') return january1 + date.day * DAY_MS;
  if (date.kind === 'J') return january1 + (date.day - 1 + (isLeap(year) && date.day >= 60 ? 1 : 0)) * DAY_MS;
  const first = Date.UTC(year, date.month - 1, 1);
  let day = first + ((date.day - new Date(first).getUTCDay() + 7) % 7) * DAY_MS + (date.week - 1) * 7 * DAY_MS;
  // Week 5 is the last such weekday of the month.
  while (new Date(day).getUTCMonth() !== date.month - 1) day -= 7 * DAY_MS;
  return day;
}

/**
 * The changes a TZ string makes after the instant `after` (UTC ms), through the last compiled year, as
 * [instant, offset east of UTC in seconds], in order. A string without daylight time makes none: the offset it names
 * holds from the file's last transition on.
 */
export function footerTransitions(text: string, after: number): Array<[number, number]> {
  const tz = parsePosixTz(text);
  if (tz.daylight === undefined || !tz.start || !tz.end) return [];
  const changes: Array<[number, number]> = [];
  const firstYear = after === -Infinity ? 1900 : new Date(after).getUTCFullYear() - 1;
  const end = Date.UTC(LAST_COMPILED_YEAR + 1, 0, 1);
  for (let year = firstYear; year <= LAST_COMPILED_YEAR; year++) {
    // Daylight time starts at a time given on the standard clock, and ends at one given on the daylight clock.
    const start = ruleDay(year, tz.start) + (tz.start.seconds - tz.standard) * 1000;
    const stop = ruleDay(year, tz.end) + (tz.end.seconds - tz.daylight) * 1000;
    const ofYear: Array<[number, number]> = [[start, tz.daylight], [stop, tz.standard]];
    // A year's end before its start (the southern hemisphere): standard time comes first in the year.
    if (stop < start) ofYear.reverse();
    for (const change of ofYear) if (change[0] > after && change[0] < end) changes.push(change);
  }
  // Daylight time all year (`…,0/0,J365/25`): a year's end and the next year's start fall at one instant, and the
  // table keeps the later, so no change is made there.
  return changes.sort((a, b) => a[0] - b[0]);
}
