// Same-named places in one region get a qualifier, so no two pages share a title: the district they lie in where
// that tells them apart, else their coordinates; the one that keeps the bare path keeps the bare name.
import { describe, expect, inject, it } from 'vitest';
import { readCatalog, type CatalogFile } from './catalogFile.js';
import { qualifiers, type Namesake } from './namesakes.js';

let stored: CatalogFile;
const catalog = (): CatalogFile => (stored ??= readCatalog(inject('catalogDataDir'))!);

const place = (name: string, extra: Partial<Namesake>): Namesake => ({
  name, country: 'TR', region: 'Bursa', area: '', latitude: 40, longitude: 29, district: false, rankWeight: 0, geonameId: 1, ...extra,
});

describe('namesakes', () => {
  it('qualify all but the main one: by district where it tells them apart, else by coordinates', () => {
    expect(
      qualifiers([
        place('Yenice', { area: 'İnegöl', rankWeight: 500, geonameId: 1 }),
        place('Yenice', { area: 'Gemlik', rankWeight: 100, geonameId: 2 }),
        place('Yenice', { area: 'Orhaneli', latitude: 39.91234, longitude: 28.98765, geonameId: 3 }),
        place('Yenice', { area: 'Orhaneli', latitude: 39.5, longitude: 28.5, geonameId: 4 }),
        place('Kumluca', { region: 'Antalya', district: true, geonameId: 0 }),
        place('Kumluca', { region: 'Antalya', area: 'Kumluca', latitude: 36.37, longitude: 30.29, rankWeight: 9000, geonameId: 5 }),
        place('Kumluca', { region: 'Bartın' }),
      ]),
    ).toEqual(['', 'Gemlik', '39.91, 28.99', '39.50, 28.50', '', '36.37, 30.29', '']);
  });

  it('give coordinates more decimals when two namesakes are closer than the first ones tell', () => {
    expect(
      qualifiers([
        place('Ova', { rankWeight: 9 }),
        place('Ova', { latitude: 40.001, longitude: 29.001, geonameId: 2 }),
        place('Ova', { latitude: 40.004, longitude: 29.001, geonameId: 3 }),
      ]),
    ).toEqual(['', '40.001, 29.001', '40.004, 29.001']);
  });

  it('leave the catalog with one title per place in each region', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const p of catalog().places) {
      const key = `${p.country}/${p.region}/${p.name}/${p.qualifier}`;
      if (seen.has(key)) clashes.push(`${seen.get(key)} and ${p.path}`);
      seen.set(key, p.path);
    }
    expect(clashes).toEqual([]);
    const qualified = catalog().places.filter((p) => p.qualifier);
    expect(qualified.length).toBeGreaterThan(3000);
    // The qualified one never holds the bare path of its name.
    const kumluca = catalog().places.filter((p) => p.name === 'Kumluca' && p.region === 'Antalya');
    expect(kumluca.map((p) => [p.type, p.path, p.qualifier]).sort()).toEqual([
      ['city', 'turkey/antalya/kumluca-305681', '36.37, 30.29'],
      ['district', 'turkey/antalya/kumluca', ''],
    ]);
  });
});
