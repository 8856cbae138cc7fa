// Searching as people type, over the real catalog the test run built: typos (issue 30's cases), a place and its
// region in either order, the two orders (the API's contract order and the site's order for people), and exact and
// prefix matching left as they were.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { foldName } from '../../pipeline/catalog/textFold.js';
import { PlaceCatalog } from './placeCatalog.js';
import { editsAllowed } from './placeSearch.js';

let catalog: PlaceCatalog;
beforeAll(() => {
  catalog = PlaceCatalog.load(inject('catalogDataDir'), { publicBaseUrl: () => 'https://example.test' })!;
});

const ISTANBUL = 'turkey/istanbul/istanbul';
const KADIKOY = 'turkey/istanbul/kadikoy';
const ANKARA = 'turkey/ankara/ankara';
const MEDINA = 'saudi-arabia/medina-region/medina';
const MEDINAH_ILLINOIS = 'united-states/illinois/medinah';

const paths = (text: string, order: 'contract' | 'people', limit = 10) => catalog.searchPlaces(text, limit, order).map((f) => f.place.path);

describe('typos', () => {
  it.each([
    ['istanbl', ISTANBUL],
    ['stanbul', ISTANBUL],
    ['İSTANBL', ISTANBUL],
    ['jakrta', 'indonesia/jakarta/jakarta'],
    ['kuala lumpr', 'malaysia/kuala-lumpur/kuala-lumpur'],
    ['new yrok', 'united-states/new-york/new-york-city'],
    ['mosow', 'russia/moscow/moscow'],
    ['kahramanmras', 'turkey/kahramanmaras/kahramanmaras'],
  ])('%s finds %s first, one edit away, in both orders', (text, path) => {
    for (const order of ['contract', 'people'] as const) {
      const [first] = catalog.searchPlaces(text, 10, order);
      expect(first.place.path, order).toBe(path);
      expect([first.kind, first.edits], order).toEqual(['typo', 1]);
    }
    // …and `city=` does not guess.
    expect(catalog.resolve(text)).toBeUndefined();
  });

  it('tolerates two edits in longer names: two letters left out, two changed, swapped', () => {
    for (const [text, path] of [
      ['afyonkrahisr', 'turkey/afyonkarahisar/afyonkarahisar'], // two left out (12 letters)
      ['gazientap', 'turkey/gaziantep/gaziantep'], // two changed
      ['kahramnamras', 'turkey/kahramanmaras/kahramanmaras'], // swapped, and one left out
    ]) {
      const [first] = catalog.searchPlaces(text, 10, 'people');
      expect(first.place.path, text).toBe(path);
      expect(first.edits, text).toBe(2);
    }
  });

  it('allows one edit from four letters and two from eight', () => {
    expect([3, 4, 7, 8].map(editsAllowed)).toEqual([0, 1, 1, 2]);
    expect(catalog.searchPlaces('ist', 30, 'people').every((f) => f.kind === 'prefix' || f.kind === 'exact')).toBe(true);
    // Six letters, two edits away (two left out): too far for a name this short.
    expect(paths('stanbl', 'people')).not.toContain(ISTANBUL);
  });

  it('finds names in other scripts one edit away', () => {
    expect(paths('мосвка', 'people')[0]).toBe('russia/moscow/moscow'); // москва, two letters swapped
  });

  it('ankra: Ankara first for people, after the exact and prefix matches for the API', () => {
    const people = catalog.searchPlaces('ankra', 10, 'people');
    expect(people[0].place.path).toBe(ANKARA);
    const contract = catalog.searchPlaces('ankra', 10, 'contract');
    const firstTypo = contract.findIndex((f) => f.kind === 'typo');
    expect(contract.slice(0, firstTypo).every((f) => f.kind !== 'typo')).toBe(true);
    expect(contract[firstTypo].place.path).toBe(ANKARA);
    expect(firstTypo).toBeLessThanOrEqual(2);
  });

  it('medinah: Medina in Saudi Arabia first for people, right after Medinah, Illinois for the API', () => {
    expect(paths('medinah', 'people').slice(0, 2)).toEqual([MEDINA, MEDINAH_ILLINOIS]);
    expect(paths('medinah', 'contract').slice(0, 2)).toEqual([MEDINAH_ILLINOIS, MEDINA]);
    expect(catalog.resolve('medinah')!.path).toBe(MEDINAH_ILLINOIS);
  });

  it('ranks by closeness and population: a place an edit away goes before one a hundred times smaller matched exactly', () => {
    for (const text of ['ankra', 'medinah', 'parsi', 'jakrta']) {
      const found = catalog.searchPlaces(text, 20, 'people');
      const typos = found.filter((f) => f.kind === 'typo');
      // Among typos: by score, where an edit costs a factor 100 of population.
      for (let k = 1; k < typos.length; k++) expect(typos[k - 1].score, text).toBeGreaterThanOrEqual(typos[k].score);
      for (const f of found) expect(f.score).toBeCloseTo(Math.log10(Math.max(f.place.rankWeight, 1)) - 2 * f.edits, 10);
    }
  });
});

describe('a place and its region or country without a comma', () => {
  it.each(['istanbul kadikoy', 'kadikoy istanbul', 'Kadıköy İstanbul', 'İSTANBUL KADIKÖY'])('%s is Kadıköy in İstanbul', (text) => {
    const [first] = catalog.searchPlaces(text, 10, 'people');
    expect(first.place.path).toBe(KADIKOY);
    expect(first.kind).toBe('exact');
    expect(paths(text, 'contract')[0]).toBe(KADIKOY);
  });

  it('with a typo in the place or the region', () => {
    expect(paths('istanbl kadikoy', 'people')[0]).toBe(KADIKOY);
    expect(paths('kadikoy istanbl', 'contract')[0]).toBe(KADIKOY);
    expect(paths('kadkoy istanbul', 'people')[0]).toBe(KADIKOY);
  });

  it('by country name, and a prefix of the place', () => {
    expect(catalog.searchPlaces('paris texas', 1, 'contract')[0].place).toMatchObject({ name: 'Paris', region: 'Texas' });
    expect(catalog.searchPlaces('texas paris', 1, 'contract')[0].place).toMatchObject({ name: 'Paris', region: 'Texas' });
    expect(catalog.searchPlaces('london ontario', 1, 'contract')[0].place).toMatchObject({ name: 'London', country: 'CA' });
    expect(catalog.searchPlaces('medina saudi arabia', 1, 'contract')[0].place.path).toBe(MEDINA);
    expect(paths('istanbul kadik', 'contract')[0]).toBe(KADIKOY);
  });

  it('not by a two-letter country code, which is too often a word of a name', () => {
    // "de" is Germany's code; Rio de Janeiro is still what "rio de" begins.
    expect(catalog.searchPlaces('rio de', 1, 'contract')[0].place.name).toBe('Rio de Janeiro');
  });
});

describe('exact and prefix matching as before', () => {
  it('the contract order begins with what city= matching gives, for names of one word', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const places = catalog.places;
    const queries = ['paris', 'kad', 'ist', 'san', 'Kadıköy', 'London', 'Springfield', 'Cologne', 'Mekke'];
    while (queries.length < 400) {
      const name = foldName(places[Math.floor(random() * places.length)].name);
      const length = 2 + Math.floor(random() * 8);
      if (!name.includes(' ') && name.length >= length) queries.push(name.slice(0, length));
    }
    for (const q of queries) {
      const before = catalog.find(q, 10).map((p) => p.path);
      const now = catalog.searchPlaces(q, 10, 'contract');
      expect(now.slice(0, before.length).map((f) => f.place.path), q).toEqual(before);
      expect(now.slice(0, before.length).every((f) => f.kind !== 'typo'), q).toBe(true);
      expect(now.slice(before.length).every((f) => f.kind === 'typo'), q).toBe(true);
    }
  });

  it('a comma still narrows, and a typo before it is found within the narrowing', () => {
    expect(paths('Kadıköy, Yalova', 'contract')[0]).toBe('turkey/yalova/kadikoy');
    expect(paths('istanbl, turkey', 'people')[0]).toBe(ISTANBUL);
    expect(paths('istanbl, FR', 'people')).not.toContain(ISTANBUL);
    expect(paths('Paris, Atlantis', 'people')).toEqual([]);
  });

  it('finds nothing for what is nothing like a name', () => {
    expect(paths('qqxqzq', 'people')).toEqual([]);
    expect(paths('Qqqqzzzz', 'contract')).toEqual([]);
  });
});
