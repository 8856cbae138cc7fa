import { describe, expect, it } from 'vitest';
import { footerTransitions, parsePosixTz } from './posixTz.js';
import { offsetAt, transitionTableOf } from './transitionTable.js';

const after2030 = Date.UTC(2030, 0, 1);
const table = (tz: string, standard: number) => transitionTableOf([[-Infinity, standard], ...footerTransitions(tz, after2030)]);
const hours = (tz: string, standard: number, iso: string): number => offsetAt(table(tz, standard), Date.parse(iso)) / 3600;

describe('POSIX TZ strings (TZif footers)', () => {
  it('read offsets west of UTC as offsets east, in angle-bracket names too', () => {
    expect(parsePosixTz('<+14>-14')).toEqual({ standard: 14 * 3600 });
    expect(parsePosixTz('<-0330>3:30')).toEqual({ standard: -3.5 * 3600 });
    expect(parsePosixTz('EST5EDT,M3.2.0,M11.1.0')).toMatchObject({ standard: -5 * 3600, daylight: -4 * 3600 });
  });

  it('change on the n-th weekday of a month, at times on the standard and then the daylight clock', () => {
    const tz = 'EST5EDT,M3.2.0,M11.1.0';
    expect(hours(tz, -18000, '2031-03-09T06:59:59Z')).toBe(-5);
    expect(hours(tz, -18000, '2031-03-09T07:00:00Z')).toBe(-4);
    expect(hours(tz, -18000, '2031-11-02T05:59:59Z')).toBe(-4);
    expect(hours(tz, -18000, '2031-11-02T06:00:00Z')).toBe(-5);
  });

  it('take the southern hemisphere’s daylight time across the new year, and negative and late rule times', () => {
    // Chile: <-04>4<-03>,M9.1.6/24,M4.1.6/24 (midnight after the first Saturday).
    const chile = '<-04>4<-03>,M9.1.6/24,M4.1.6/24';
    expect(hours(chile, -14400, '2031-01-15T12:00:00Z')).toBe(-3);
    expect(hours(chile, -14400, '2031-06-15T12:00:00Z')).toBe(-4);
    // Greenland before 2023: <-03>3<-02>,M3.5.0/-2,M10.5.0/-1 (changes at 01:00 UTC).
    const nuuk = '<-03>3<-02>,M3.5.0/-2,M10.5.0/-1';
    expect(hours(nuuk, -10800, '2031-03-30T00:59:59Z')).toBe(-3);
    expect(hours(nuuk, -10800, '2031-03-30T01:00:00Z')).toBe(-2);
  });

  it('count J days without February 29 and n days with it, and keep daylight time all year as no change', () => {
    // J60 is 1 March in every year; 59 is 29 February in a leap year (counted from 0).
    expect(hours('AAA3BBB,J60/0,J300/0', -10800, '2032-03-01T03:00:00Z')).toBe(-2);
    expect(hours('AAA3BBB,J60/0,J300/0', -10800, '2032-02-29T12:00:00Z')).toBe(-3);
    expect(hours('AAA3BBB,59/0,300/0', -10800, '2032-02-29T03:00:00Z')).toBe(-2);
    expect([...table('EST5EDT,0/0,J365/25', -18000).at].filter((at) => at > Date.UTC(2031, 0, 2))).toEqual([]);
    expect(hours('EST5EDT,0/0,J365/25', -18000, '2040-07-01T00:00:00Z')).toBe(-4);
  });
});
