// The shared catalog tables against the catalog file they were built from: every place the same object (fields and
// their order), every search key the same string, paths found, and a thread attaching the buffer seeing the same.
import { Worker } from 'node:worker_threads';
import { describe, expect, inject, it } from 'vitest';
import { readCatalog } from '../../pipeline/catalog/catalogFile.js';
import { buildSharedCatalog, CatalogTables } from './catalogTables.js';

const file = readCatalog(inject('catalogDataDir'))!;
const shared = buildSharedCatalog(file);
const tables = new CatalogTables(shared);

describe('catalog tables', () => {
  it('give back every place as the file has it', () => {
    expect(tables.count).toBe(file.places.length);
    for (let i = 0; i < file.places.length; i++) {
      const place = tables.place(i);
      expect(Object.keys(place)).toEqual(Object.keys(file.places[i]));
      expect(place).toStrictEqual(file.places[i]);
      expect(tables.indexOfPath(file.places[i].path)).toBe(i);
    }
    expect(tables.indexOfPath('nowhere/at/all')).toBe(-1);
  });

  it('keep the search keys in JavaScript string order', () => {
    const { keys, prefixes } = file.search;
    expect(tables.keys.length).toBe(keys.length);
    for (let k = 0; k < keys.length; k += 97) {
      expect(tables.keys.at(k)).toBe(keys[k]);
      expect(tables.keys.compare(k, keys[k])).toBe(0);
      expect(tables.keys.lowerBound(keys[k])).toBe(k);
    }
    for (let k = 0; k < prefixes.length; k += 31) expect(tables.prefixes.lowerBound(prefixes[k])).toBe(k);
    expect(Array.from(tables.postings.values)).toEqual(Array.from(file.search.postings.values));
  });

  it('are attached by another thread without copying', async () => {
    const worker = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const latitude = new Float64Array(workerData.buffer, workerData.layout.latitude[1], workerData.layout.latitude[2]);
       parentPort.postMessage(latitude[1]); latitude[1] = 1234.5;`,
      { eval: true, workerData: shared },
    );
    const seen = await new Promise((resolve) => worker.once('message', resolve));
    await new Promise((resolve) => worker.once('exit', resolve));
    expect(seen).toBe(file.places[1].latitude);
    expect(tables.latitude[1]).toBe(1234.5); // the same memory
  });
});
