// Polar estimates that do not jump (issue 33): over a year at 65°–80° N and S, an estimated time moves from one day to
// the next no more than the times of the nearest latitude where every event exists all year; and where estimates
// begin or end, no more than the true times of the place itself move on the days around. Before, the reference
// latitude stepped by half a degree and Tromsø's June sunrise ran 01:33, 01:26, 01:19, 01:09, 01:33 again. Every method.
import { describe, expect, it } from 'vitest';
import { METHOD_IDS, methodById, TIME_NAMES, type TimeName } from './methods.js';
import { computeTimetable, type DayTimes } from './prayerTimes.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const YEAR = 2027;
const LONGITUDE = 18.95;

function year(latitude: number, method: string): DayTimes[] {
  return computeTimetable({ latitude, longitude: LONGITUDE, timeZone: 'UTC', method: methodById(method), madhab: 'shafi' }, { year: YEAR, month: 1, day: 1 }, 365, false);
}

/** Minutes a time moves from one day to the next, beyond the day's 24 hours. */
const jump = (days: DayTimes[], i: number, name: TimeName): number => Math.abs(days[i].times[name] - days[i - 1].times[name] - DAY_MS) / MINUTE_MS;

/** A day resolved for the polar circles: a sunrise, maghrib or asr that does not exist, estimated. */
const polar = (day: DayTimes): boolean => day.estimated.includes('sunrise') || day.estimated.includes('maghrib') || day.estimated.includes('asr');

/**
 * A time taken from the polar reference day: sunrise, asr or maghrib estimated; fajr (imsak) and isha with the sunrise
 * or maghrib of their night (estimated on a day whose sunrise exists, fajr follows the method's twilight rule and the
 * true sunrise).
 */
function fromReference(day: DayTimes, name: TimeName): boolean {
  const est = (n: TimeName) => day.estimated.includes(n);
  if (name === 'imsak' || name === 'fajr') return est(name) && est('sunrise');
  if (name === 'isha') return est(name) && est('maghrib');
  return est(name);
}

type Jumps = Record<TimeName, number>;
const none = (): Jumps => Object.fromEntries(TIME_NAMES.map((n) => [n, 0])) as Jumps;

/** The largest day-to-day move of each time over the pairs of days `counted` accepts. */
function largestJumps(days: DayTimes[], counted: (a: DayTimes, b: DayTimes) => boolean): Jumps {
  const out = none();
  for (let i = 1; i < days.length; i++) {
    if (!counted(days[i - 1], days[i])) continue;
    for (const name of TIME_NAMES) out[name] = Math.max(out[name], jump(days, i, name));
  }
  return out;
}

/**
 * Half the longest night (midnight sun) or day (polar night) of the reference days, minutes: between a resolved
 * maghrib and the next resolved sunrise, or a resolved sunrise and maghrib.
 */
function halfReferenceSpan(days: DayTimes[]): number {
  let longest = 0;
  const resolved = (d: DayTimes) => d.estimated.includes('sunrise') && d.estimated.includes('maghrib');
  for (let i = 0; i < days.length; i++) {
    if (!resolved(days[i])) continue;
    const { sunrise, maghrib } = days[i].times;
    const span = maghrib > sunrise && maghrib - sunrise < DAY_MS / 2 ? maghrib - sunrise : i + 1 < days.length && resolved(days[i + 1]) ? days[i + 1].times.sunrise - maghrib : 0;
    longest = Math.max(longest, span / MINUTE_MS);
  }
  return longest / 2;
}

/** The latitude nearest the pole, on the half-degree grid, where no day of the year is resolved for the polar circles. */
function nearestLatitudeWithEveryEvent(sign: 1 | -1, method: string): number {
  for (let lat = 70; lat >= 60; lat -= 0.5) if (!year(sign * lat, method).some(polar)) return sign * lat;
  throw new Error('no latitude without polar days');
}

const LATITUDES = Array.from({ length: 31 }, (_, i) => 65 + i * 0.5);

describe.each(METHOD_IDS.map((id) => [id]))('%s: polar estimates move smoothly', (method) => {
  it.each([
    ['north', 1],
    ['south', -1],
  ] as const)('%s, 65° to 80°, every day of a year', (_, sign) => {
    const reference = nearestLatitudeWithEveryEvent(sign, method);
    const bound = largestJumps(year(reference, method), () => true);
    let polarDays = 0;
    const problems: string[] = [];
    for (const lat of LATITUDES) {
      const days = year(sign * lat, method);
      const trueJumps = largestJumps(days, (a, b) => !polar(a) && !polar(b));
      const halfReference = halfReferenceSpan(days);
      for (let i = 1; i < days.length; i++) {
        const [before, after] = [polar(days[i - 1]), polar(days[i])];
        if (after) polarDays++;
        if (!before && !after) continue;
        for (const name of TIME_NAMES) {
          const moved = jump(days, i, name);
          const where = `${sign * lat}° ${days[i].date.month}-${days[i].date.day} ${name} moved ${moved} min`;
          if (before && after && fromReference(days[i - 1], name) && fromReference(days[i], name)) {
            // Taken from the reference on both days: no more than where everything exists (a minute for rounding).
            if (moved > bound[name] + 1) problems.push(`${where} (allowed ${bound[name] + 1})`);
          } else if (before !== after) {
            // Where the estimates begin or end, the true night (or, in polar night, day) has shrunk to somewhere
            // between nothing and the reference's: the step onto the reference is at most half the reference's
            // night or day, beyond a day's move of the true times (or of the reference latitude's, if larger).
            const allowed = Math.max(bound[name], trueJumps[name]) + halfReference + 1;
            if (moved > allowed) problems.push(`${where} where estimates begin or end (allowed ${allowed})`);
          }
        }
      }
    }
    // The test means something: most of these latitudes have weeks of polar days.
    expect(polarDays).toBeGreaterThan(20 * 100);
    expect(problems).toEqual([]);
  });
});

describe('Tromsø in June 2027 (the sawtooth of the issue)', () => {
  it('the estimated sunrise and maghrib move by at most a minute a day through the midnight sun', () => {
    const days = computeTimetable({ latitude: 69.6492, longitude: 18.9553, timeZone: 'Europe/Oslo', method: methodById('muslimWorldLeague'), madhab: 'shafi' }, { year: 2027, month: 6, day: 1 }, 30, false);
    expect(days.every((d) => d.estimated.includes('sunrise') && d.estimated.includes('maghrib'))).toBe(true);
    for (let i = 1; i < days.length; i++) {
      expect(jump(days, i, 'sunrise'), `sunrise ${i}`).toBeLessThanOrEqual(1);
      expect(jump(days, i, 'maghrib'), `maghrib ${i}`).toBeLessThanOrEqual(1);
    }
  });
});
