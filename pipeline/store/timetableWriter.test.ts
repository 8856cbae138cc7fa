// The store's writer gathers records into transactions of a few MB and appends those that come in key order
// (timetableStore.ts): every record must land, in batches and in the partial batch at the end, in order or not, and
// `queued` must count what is not yet committed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { placeAt, placeColumns } from '../precompute/placeColumns.js';
import { TimetableReader, TimetableWriter, type StoreMeta } from './timetableStore.js';

const dir = mkdtempSync(path.join(tmpdir(), 'writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (i: number): Buffer => Buffer.alloc(3000 + (i % 500), i % 251);

describe('TimetableWriter', () => {
  it('writes every record of several batches and of the last, partial one, appended or inserted', async () => {
    const writer = TimetableWriter.create(dir);
    const count = 3001; // about 10 MB: two full batches of 4 MB and a partial one
    // In key order but for every tenth record, which comes after the nine that follow it (an insert between appends).
    const order = Array.from({ length: count }, (_, i) => (i % 10 === 0 ? Math.min(i + 9, count - 1) : i % 10 === 9 ? i - 9 : i));
    expect(new Set(order).size).toBe(count);
    for (const i of order) writer.put(`p${String(i).padStart(5, '0')}/m/shafi/2026`, record(i));
    expect(writer.queued).toBe(count);
    await writer.committed();
    expect(writer.queued).toBe(0);
    const meta: StoreMeta = { builtAt: 'now', catalogBuiltAt: 'then', years: [2026], scope: 'test', methods: 'default', madhabs: 'default', places: count, placeYears: count };
    await writer.finish(meta);
    const reader = TimetableReader.open(dir, writer.name);
    try {
      for (let i = 0; i < count; i++) expect(reader.get(`p${String(i).padStart(5, '0')}`, 'm', 'shafi', 2026)?.equals(record(i))).toBe(true);
      expect(reader.get('p03001', 'm', 'shafi', 2026)).toBeUndefined();
    } finally {
      await reader.close();
    }
  });
});

describe('placeColumns', () => {
  it('gives back each place as it was, names shared', () => {
    const places = [
      { id: 'a', country: 'TR', region: 'Istanbul', latitude: 41.01, longitude: 28.97, timeZone: 'Europe/Istanbul' },
      { id: 'b', country: 'TR', region: 'Ankara', latitude: 39.93, longitude: 32.86, timeZone: 'Europe/Istanbul' },
      { id: 'c', country: 'NZ', region: 'Chatham Islands', latitude: -43.95, longitude: -176.55, timeZone: 'Pacific/Chatham' },
    ];
    const columns = placeColumns(places);
    expect(places.map((_, i) => placeAt(columns, i))).toEqual(places);
    expect(columns.names).toEqual(['TR', 'Istanbul', 'Europe/Istanbul', 'Ankara', 'NZ', 'Chatham Islands', 'Pacific/Chatham']);
  });
});
