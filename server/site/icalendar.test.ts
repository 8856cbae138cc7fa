// The iCalendar writer: folding at 75 octets without splitting a UTF-8 character, TEXT escaping, CRLF line ends.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, MAX_LINE_OCTETS, utcDateTime, writeCalendar, type Calendar } from './icalendar.js';

const octets = (s: string): number => Buffer.byteLength(s, 'utf8');
/** Physical lines of a folded line (without the CRLFs). */
const physical = (folded: string): string[] => folded.split('\r\n');
/** RFC 5545 unfolding: a CRLF followed by one space or tab goes. */
const unfold = (text: string): string => text.replace(/\r\n[ \t]/g, '');

describe('foldLine', () => {
  it('leaves a line of 75 octets as it is and folds one of 76', () => {
    const line75 = `SUMMARY:${'x'.repeat(75 - 8)}`;
    expect(foldLine(line75)).toBe(line75);
    const folded = foldLine(`${line75}y`);
    expect(physical(folded)).toEqual([line75, ' y']);
  });

  it.each([
    ['Turkish (2-octet letters)', `SUMMARY:${'Öğle İkindi Akşam Yatsı Güneş '.repeat(8)}`],
    ['three-octet characters', `SUMMARY:${'ﷺ€'.repeat(60)}`],
    ['four-octet characters (surrogate pairs)', `SUMMARY:${'🕌x'.repeat(50)}`],
    ['a character at every offset', `SUMMARY:a${'ğ'.repeat(40)}ab${'€'.repeat(30)}abc${'🕌'.repeat(30)}`],
  ])('%s: every physical line ≤ 75 octets, valid UTF-8, unfolding gives the line back', (_what, line) => {
    const folded = foldLine(line);
    const lines = physical(folded);
    expect(lines.length).toBeGreaterThan(1);
    for (const [i, l] of lines.entries()) {
      expect(octets(l)).toBeLessThanOrEqual(MAX_LINE_OCTETS);
      if (i > 0) expect(l.startsWith(' ')).toBe(true);
      // No lone surrogate: the piece survives a UTF-8 round trip.
      expect(Buffer.from(l, 'utf8').toString('utf8')).toBe(l);
      expect(l).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
    // Lines are used to the full: folding happens only when the next character would not fit.
    for (const l of lines.slice(0, -1)) expect(octets(l)).toBeGreaterThan(MAX_LINE_OCTETS - 4);
    expect(unfold(folded)).toBe(line);
  });
});

describe('escapeText', () => {
  it('escapes backslash, semicolon, comma and line breaks, and nothing else', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\rg: "h" İ')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng: "h" İ');
  });
});

describe('utcDateTime', () => {
  it('is the UTC DATE-TIME form', () => {
    expect(utcDateTime(Date.UTC(2026, 10, 23, 3, 23))).toBe('20261123T032300Z');
    expect(utcDateTime(Date.UTC(2027, 0, 1, 23, 59, 59, 999))).toBe('20270101T235959Z');
  });
});

describe('writeCalendar', () => {
  const calendar: Calendar = {
    prodId: '-//prayer-times.example//Prayer Times//EN',
    name: 'Namaz vakitleri: Kadıköy, İstanbul; "Türkiye"',
    description: `Line one\nline two, with ${'Öğle '.repeat(30)}`,
    timeZone: 'Europe/Istanbul',
    url: `https://prayer-times.example/tr/namaz-vakitleri/${'a'.repeat(80)}`,
    refresh: 'P1D',
    stamp: Date.UTC(2026, 10, 22, 21),
    events: [
      { uid: 'tr-34-kadikoy-20261123-fajr-diyanet-shafi@prayer-times.example', start: Date.UTC(2026, 10, 23, 3, 23), duration: 'PT0S', summary: 'Sabah' },
      { uid: 'tr-34-kadikoy-20261123-isha-diyanet-shafi@prayer-times.example', start: Date.UTC(2026, 10, 23, 16, 12), duration: 'PT10M', summary: 'Yatsı, ; \\ test' },
    ],
  };
  const text = writeCalendar(calendar);

  it('ends every line with CRLF, never a bare LF or CR, and keeps lines within 75 octets', () => {
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75);
  });

  it('has the calendar properties clients need', () => {
    const lines = unfold(text).split('\r\n');
    for (const expected of ['BEGIN:VCALENDAR', 'VERSION:2.0', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', 'X-WR-TIMEZONE:Europe/Istanbul', 'REFRESH-INTERVAL;VALUE=DURATION:P1D', 'X-PUBLISHED-TTL:P1D', 'TRANSP:TRANSPARENT']) {
      expect(lines).toContain(expected);
    }
    expect(lines).toContain('X-WR-CALNAME:Namaz vakitleri: Kadıköy\\, İstanbul\\; "Türkiye"');
    expect(lines).toContain('DTSTART:20261123T032300Z');
    expect(lines).toContain('DTSTAMP:20261122T210000Z');
  });

  it('parses with ical.js into the same values', () => {
    const vcalendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    expect(vcalendar.getFirstPropertyValue('version')).toBe('2.0');
    // ical.js reads X- properties as raw text (type unknown): the escaped TEXT form, as calendar clients write it.
    expect(vcalendar.getFirstPropertyValue('x-wr-calname')).toBe(escapeText(calendar.name));
    expect(vcalendar.getFirstPropertyValue('description')).toBe(calendar.description);
    expect(vcalendar.getFirstPropertyValue('url')).toBe(calendar.url);
    const events = vcalendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(events.map((e) => [e.uid, e.summary, e.startDate.toJSDate().getTime(), e.duration.toSeconds()])).toEqual(
      calendar.events.map((e) => [e.uid, e.summary, e.start, e.duration === 'PT0S' ? 0 : 600]),
    );
  });
});

describe('writeCalendar with reminders', () => {
  it('writes a DISPLAY VALARM inside the event, before its END, that ical.js reads back', () => {
    const text = writeCalendar({
      prodId: '-//prayer-times.example//Prayer Times//EN',
      name: 'Kadıköy',
      timeZone: 'Europe/Istanbul',
      refresh: 'P1D',
      stamp: Date.UTC(2026, 10, 22, 21),
      events: [
        { uid: 'a@x', start: Date.UTC(2026, 10, 23, 14, 46), duration: 'PT15M', summary: 'Akşam', alarm: { minutesBefore: 10, description: 'Akşam vaktine 10 dakika var; ok' } },
        { uid: 'b@x', start: Date.UTC(2026, 10, 23, 16, 10), duration: 'PT15M', summary: 'Yatsı' },
      ],
    });
    expect(unfold(text)).toContain('SUMMARY:Akşam\r\nTRANSP:TRANSPARENT\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Akşam vaktine 10 dakika var\\; ok\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\n');
    const [first, second] = new ICAL.Component(ICAL.parse(text) as unknown[]).getAllSubcomponents('vevent');
    const alarm = first.getFirstSubcomponent('valarm')!;
    expect(alarm.getFirstPropertyValue('action')).toBe('DISPLAY');
    expect(alarm.getFirstPropertyValue('description')).toBe('Akşam vaktine 10 dakika var; ok');
    expect((alarm.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds()).toBe(-600);
    expect(second.getAllSubcomponents('valarm')).toEqual([]);
  });
});
