// An iCalendar (RFC 5545) writer for the calendar subscriptions: CRLF line ends, content lines folded at 75 octets
// without splitting a UTF-8 character, TEXT values escaped. Events are instants in UTC; nothing here knows prayers.

const CRLF = '\r\n';
/** RFC 5545 §3.1: lines SHOULD NOT be longer than 75 octets, excluding the line break. */
export const MAX_LINE_OCTETS = 75;

/** A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, line breaks as `\n`. */
export const escapeText = (text: string): string =>
  text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');

const octetsOf = (codePoint: number): number => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/**
 * A content line folded (RFC 5545 §3.1): no physical line longer than 75 octets in UTF-8; each continuation starts
 * with one space (which counts in its 75). A character is never split, so a line may end short of 75 octets.
 */
export function foldLine(line: string): string {
  // Short ASCII lines, nearly all of a feed, as they are.
  if (line.length <= MAX_LINE_OCTETS && !/[^\x00-\x7f]/.test(line)) return line;
  let out = '';
  let octets = 0;
  for (const character of line) {
    const size = octetsOf(character.codePointAt(0)!);
    if (octets + size > MAX_LINE_OCTETS) {
      out += `${CRLF} `;
      octets = 1;
    }
    out += character;
    octets += size;
  }
  return out;
}

/** `YYYYMMDDTHHMMSSZ`, a DATE-TIME in UTC (seconds dropped below a whole second). */
export function utcDateTime(ms: number): string {
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString(); // 2026-11-23T03:23:00.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

export interface CalendarEvent {
  /** Globally unique and stable across feeds of the same event. */
  uid: string;
  /** UTC ms. */
  start: number;
  /** ISO 8601 duration: `PT0S`, `PT10M`. */
  duration: string;
  summary: string;
  /** A reminder shown this many whole minutes before the start (a VALARM with ACTION:DISPLAY). */
  alarm?: { minutesBefore: number; description: string };
}

export interface Calendar {
  /** `-//Owner//Product//EN` */
  prodId: string;
  /** X-WR-CALNAME and NAME (RFC 7986). */
  name: string;
  description?: string;
  /** X-WR-TIMEZONE: the zone a client should show the events in (the events themselves are in UTC). */
  timeZone: string;
  /** The page the calendar belongs to (URL, RFC 7986). */
  url?: string;
  /** The feed's own address (SOURCE, RFC 7986). */
  source?: string;
  /** How often clients should fetch it again (REFRESH-INTERVAL and X-PUBLISHED-TTL): `P1D`. */
  refresh: string;
  /** DTSTAMP of every event (UTC ms). */
  stamp: number;
  events: readonly CalendarEvent[];
}

/** The calendar as an iCalendar object, CRLF after every line (the last one too). */
export function writeCalendar(calendar: Calendar): string {
  const lines: string[] = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${escapeText(calendar.prodId)}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `NAME:${escapeText(calendar.name)}`,
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
  ];
  if (calendar.description !== undefined) {
    lines.push(`DESCRIPTION:${escapeText(calendar.description)}`, `X-WR-CALDESC:${escapeText(calendar.description)}`);
  }
  lines.push(`X-WR-TIMEZONE:${escapeText(calendar.timeZone)}`);
  if (calendar.url !== undefined) lines.push(`URL;VALUE=URI:${calendar.url}`);
  if (calendar.source !== undefined) lines.push(`SOURCE;VALUE=URI:${calendar.source}`);
  lines.push(`REFRESH-INTERVAL;VALUE=DURATION:${calendar.refresh}`, `X-PUBLISHED-TTL:${calendar.refresh}`);
  const stamp = `DTSTAMP:${utcDateTime(calendar.stamp)}`;
  for (const event of calendar.events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(event.uid)}`,
      stamp,
      `DTSTART:${utcDateTime(event.start)}`,
      `DURATION:${event.duration}`,
      `SUMMARY:${escapeText(event.summary)}`,
      'TRANSP:TRANSPARENT',
    );
    // RFC 5545 §3.6.6: a DISPLAY alarm needs its DESCRIPTION and TRIGGER (here relative to DTSTART).
    if (event.alarm) {
      lines.push('BEGIN:VALARM', 'ACTION:DISPLAY', `DESCRIPTION:${escapeText(event.alarm.description)}`, `TRIGGER:-PT${event.alarm.minutesBefore}M`, 'END:VALARM');
    }
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  let out = '';
  for (const line of lines) out += foldLine(line) + CRLF;
  return out;
}
