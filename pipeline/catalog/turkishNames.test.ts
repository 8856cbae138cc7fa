// Places in Türkiye under their Turkish spelling, as Diyanet and the state's lists write them (İstanbul, not
// Istanbul), in the API and on both languages' pages; a neighbourhood list that drops a mark never takes one away.
import { describe, expect, inject, it } from 'vitest';
import { readCatalog, type CatalogFile } from './catalogFile.js';
import { TurkishSpellings } from './turkishNames.js';
import { foldName } from './textFold.js';

let stored: CatalogFile;
const catalog = (): CatalogFile => (stored ??= readCatalog(inject('catalogDataDir'))!);

describe('Turkish spellings', () => {
  const spellings = new TurkishSpellings(
    [
      { code: '34', name: 'İstanbul', districts: ['Kadıköy', 'Eyüpsultan'] },
      { code: '48', name: 'Muğla', districts: ['Ortaca'] },
    ],
    new Map([
      ['34', ['Kadıköy', 'Çayır', 'Cayır', 'Yalangoz']],
      ['48', ['Sarıgerme']],
    ]),
  );

  it('take the province’s, a district’s or a neighbourhood’s spelling of the same letters', () => {
    expect(spellings.spell('İstanbul', 'Istanbul')).toBe('İstanbul');
    expect(spellings.spell('İstanbul', 'Kadikoy')).toBe('Kadıköy');
    expect(spellings.spell('Muğla', 'Sarigerme')).toBe('Sarıgerme');
    expect(spellings.spell('Muğla', 'Mugla')).toBe('Muğla');
  });

  it('leave a name alone where the lists disagree, have nothing, or would take a mark away', () => {
    expect(spellings.spell('İstanbul', 'Cayir')).toBe('Cayir'); // Çayır and Cayır: ambiguous
    expect(spellings.spell('İstanbul', 'Yalangöz')).toBe('Yalangöz');
    expect(spellings.spell('İstanbul', 'Moda')).toBe('Moda');
    expect(spellings.spell('Muğla', 'Istanbul')).toBe('Istanbul'); // another province's name
  });

  it('give the catalog’s Turkish places the spellings Diyanet prints', () => {
    const places = catalog().places.filter((p) => p.country === 'TR');
    const named = (name: string, region: string) => places.find((p) => p.name === name && p.region === region);
    // Diyanet's own names in ../shared/reference/diyanet-dev-sample.json: every one a place of that spelling.
    for (const name of ['Adana', 'Aksaray', 'Ankara', 'Antalya', 'Diyarbakır', 'Konya', 'Samsun', 'Trabzon', 'İstanbul', 'İzmir', 'Şanlıurfa']) {
      const spelled = places.filter((p) => p.region === name && foldName(p.name) === foldName(name)).map((p) => p.name);
      expect(spelled.length, name).toBeGreaterThan(0);
      expect(spelled, name).toEqual(spelled.map(() => name));
    }
    expect(named('İstanbul', 'İstanbul')!.id).toBe('g745044');
    expect(named('Sarıgerme', 'Muğla')).toBeDefined();
    expect(named('Yalangöz', 'Hatay')).toBeDefined();
    // A place named as its province is spelled as its province, everywhere in Türkiye.
    const provinces = new Set(places.map((p) => p.region));
    const wrong = places.filter((p) => !provinces.has(p.name) && [...provinces].some((r) => foldName(r) === foldName(p.name) && r === p.region));
    expect(wrong.map((p) => `${p.name} (${p.region})`)).toEqual([]);
  });
});
