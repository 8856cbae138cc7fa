// Reads a TZif file, zic's compiled form of one zone (RFC 8536), into an offset-transition table. Pure: the caller
// hands in the bytes. Version 1 files carry 32-bit instants only; version 2 and later repeat the data with 64-bit
// instants and end with a footer, a POSIX TZ string (posixTz.ts) for the instants after the last transition.
import { footerTransitions } from './posixTz.js';
import { type TransitionTable, transitionTableOf } from './transitionTable.js';

interface Header {
  version: number;
  isutcnt: number;
  isstdcnt: number;
  leapcnt: number;
  timecnt: number;
  typecnt: number;
  charcnt: number;
}

const HEADER_BYTES = 44;

function header(view: DataView, at: number): Header {
  const magic = String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
  if (magic !== 'TZif') throw new Error('not a TZif file');
  const version = view.getUint8(at + 4);
  const count = (i: number): number => view.getUint32(at + 20 + 4 * i);
  return {
    version: version === 0 ? 1 : version - 0x30,
    isutcnt: count(0),
    isstdcnt: count(1),
    leapcnt: count(2),
    timecnt: count(3),
    typecnt: count(4),
    charcnt: count(5),
  };
}

/** The bytes of a data block after its header, for instants of `timeSize` bytes. */
function blockLength(h: Header, timeSize: number): number {
  return h.timecnt * timeSize + h.timecnt + h.typecnt * 6 + h.charcnt + h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt;
}

/** The transitions of a TZif file, and its footer's rule after them (version 2 and later). */
export function readTzif(bytes: Uint8Array): TransitionTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const first = header(view, 0);
  let h = first;
  let at = HEADER_BYTES;
  let timeSize = 4;
  if (first.version >= 2) {
    // The version 1 block is there for old readers; the 64-bit block after it is the one to read.
    at += blockLength(first, 4);
    h = header(view, at);
    at += HEADER_BYTES;
    timeSize = 8;
  }
  const instants: number[] = [];
  for (let i = 0; i < h.timecnt; i++, at += timeSize) {
    instants.push(timeSize === 8 ? Number(view.getBigInt64(at)) : view.getInt32(at));
  }
  const typeIndex: number[] = [];
  for (let i = 0; i < h.timecnt; i++, at++) typeIndex.push(view.getUint8(at));
  const typeOffsets: number[] = [];
  for (let i = 0; i < h.typecnt; i++, at += 6) typeOffsets.push(view.getInt32(at));
  at += h.charcnt + h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt;

  // Before the first transition, the first local time type holds (RFC 8536, 3.2).
  const changes: Array<[number, number]> = [[-Infinity, typeOffsets[0]]];
  for (let i = 0; i < h.timecnt; i++) changes.push([instants[i] * 1000, typeOffsets[typeIndex[i]]]);
  if (h.version >= 2) {
    const footer = new TextDecoder().decode(bytes.subarray(at)).split('\n')[1] ?? '';
    if (footer !== '') {
      const last = changes[changes.length - 1][0];
      for (const change of footerTransitions(footer, last)) changes.push(change);
    }
  }
  return transitionTableOf(changes);
}
