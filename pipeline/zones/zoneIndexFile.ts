// The zone index on disk, beside the catalog (DATA_DIR/catalog/zone-index.bin), built by `catalog build` (or
// `catalog zones` alone) and replaced atomically. The file: "PTZI", the header's length (4 bytes, little-endian), the
// header (JSON: format, source, names, root, layout), zeros up to a multiple of 8, then the buffer as it lies in
// memory (the edge bytes last). It is read straight into shared memory, and only when it was built from the geo-tz now
// installed; the edge bytes are read later, a quad at a time, as points need them.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SharedZoneIndex } from './zoneIndex.js';
import { geoTzSource } from './zoneIndexBuild.js';

export const ZONE_INDEX_FORMAT = 2;
const MAGIC = 'PTZI';

export const zoneIndexPath = (dataDir: string): string => path.join(dataDir, 'catalog', 'zone-index.bin');

type Header = Omit<SharedZoneIndex, 'buffer' | 'edgesFile'> & { format: number; bytes: number };

export function writeZoneIndex(dataDir: string, index: SharedZoneIndex): { file: string; bytes: number } {
  const file = zoneIndexPath(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  const { buffer, edgesFile, ...described } = index;
  // An index read from a file may lack edge bytes no point has needed yet: taken from that file.
  if (edgesFile) {
    const edges = new Uint8Array(buffer, index.layout.edges[0], index.layout.edges[1]);
    for (let at = 0; at < edges.length; ) {
      const read = readSync(edgesFile.fd, edges, at, edges.length - at, edgesFile.offset + at);
      if (read === 0) throw new Error('zone index: its file ends early');
      at += read;
    }
    const loaded = new Int32Array(edgesFile.loaded);
    for (let quad = 0; quad < loaded.length; quad++) Atomics.store(loaded, quad, 1);
  }
  const header = Buffer.from(JSON.stringify({ format: ZONE_INDEX_FORMAT, bytes: buffer.byteLength, ...described } satisfies Header));
  const start = Math.ceil((8 + header.length) / 8) * 8;
  const head = Buffer.alloc(start);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(header.length, 4);
  header.copy(head, 8);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, head);
    writeFileSync(temporary, new Uint8Array(buffer), { flag: 'a' });
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  return { file, bytes: start + buffer.byteLength };
}

export type ZoneIndexRead = { index: SharedZoneIndex } | { index: undefined; problem: 'missing' | 'stale' | 'unreadable'; detail: string };

/**
 * The index under a data directory, in a new SharedArrayBuffer; or why there is none to use: no file, a file built
 * from another geo-tz (its answers could differ from the installed one's), or a file that is not an index.
 */
export function readZoneIndex(dataDir: string, source = geoTzSource()): ZoneIndexRead {
  const file = zoneIndexPath(dataDir);
  if (!existsSync(file)) return { index: undefined, problem: 'missing', detail: `${file} does not exist` };
  const fd = openSync(file, 'r');
  // Kept open for the process's life when the index is returned: its edge bytes are read from it on first use (a
  // worker thread that reads the index must leave it open when it ends: trackUnmanagedFds off, server/process/main.ts).
  let keepOpen = false;
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(8);
    readSync(fd, head, 0, 8, 0);
    const headerLength = head.readUInt32LE(4);
    if (head.toString('latin1', 0, 4) !== MAGIC || headerLength > size - 8) return { index: undefined, problem: 'unreadable', detail: `${file} is not a zone index` };
    const headerBytes = Buffer.alloc(headerLength);
    readSync(fd, headerBytes, 0, headerLength, 8);
    const header = JSON.parse(headerBytes.toString('utf8')) as Header;
    const start = Math.ceil((8 + headerLength) / 8) * 8;
    if (header.format !== ZONE_INDEX_FORMAT || start + header.bytes !== size) {
      return { index: undefined, problem: 'unreadable', detail: `${file} is not a zone index of format ${ZONE_INDEX_FORMAT}` };
    }
    if (header.source !== source) return { index: undefined, problem: 'stale', detail: `${file} was built from ${header.source}; installed: ${source}` };
    // All but the edge bytes now; those of a quad when a point first needs them (zoneIndex.ts), so that the
    // server's memory holds the quads its requests have touched, not all 16 MB at start.
    const buffer = new SharedArrayBuffer(header.bytes);
    const tables = new Uint8Array(buffer, 0, header.layout.edges[0]);
    for (let at = 0; at < tables.length; ) {
      const read = readSync(fd, tables, at, tables.length - at, start + at);
      if (read === 0) return { index: undefined, problem: 'unreadable', detail: `${file} ends early` };
      at += read;
    }
    const { format: _format, bytes: _bytes, ...index } = header;
    const loaded = new SharedArrayBuffer(4 * (header.layout.quads[1] / 2));
    keepOpen = true;
    return { index: { ...index, buffer, edgesFile: { fd, offset: start + header.layout.edges[0], loaded } } };
  } catch (error) {
    return { index: undefined, problem: 'unreadable', detail: `${file}: ${String(error)}` };
  } finally {
    if (!keepOpen) closeSync(fd);
  }
}
