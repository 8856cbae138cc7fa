// Site paths: one folding for every slug (Eminönü is `eminonu` as Kadıköy is `kadikoy`, Köln `koln`), the paths of the
// former rule kept as aliases of the same places, and a contested path left with the place that had it.
import { describe, expect, inject, it } from 'vitest';
import { readCatalog, type CatalogFile } from './catalogFile.js';
import { formerPaths, formerPlaceSlug, placeSlug, uniquePaths, type PathClaim } from './placePaths.js';
import { foldName, slugify } from './textFold.js';

let stored: CatalogFile;
const catalog = (): CatalogFile => (stored ??= readCatalog(inject('catalogDataDir'))!);
const byName = (name: string, region: string) => catalog().places.find((p) => p.name === name && p.region === region)!;

describe('a place’s slug', () => {
  it.each([
    ['Eminönü', 'Eminoenue', 'eminonu'],
    ['Kadıköy', 'Kadikoey', 'kadikoy'],
    ['Köln', 'Koeln', 'koln'],
    ['Şanlıurfa', 'Sanliurfa', 'sanliurfa'],
    ['Çağlayancerit', 'Caglayancerit', 'caglayancerit'],
    ['Zwölfaxing', 'Zwoelfaxing', 'zwolfaxing'],
    ['Malargüe', 'Malarguee', 'malargue'],
    ['Quận Đức Thịnh', 'Quan GJuc Thinh', 'quan-duc-thinh'],
    ['Straße', 'Strasse', 'strasse'],
    // Letters the folding keeps, and other scripts: the source's ASCII name.
    ['Əhmədbəyli', 'Ahmadbayli', 'ahmadbayli'],
    ['Октябрьский', "Oktjabr'skij", 'oktjabrskij'],
    ['城郊', '', 'place-1'],
  ])('%s (ASCII name %s) is %s', (name, ascii, slug) => {
    expect(placeSlug(name, ascii, 'place-1')).toBe(slug);
  });

  it('is the place’s own name folded, for every place of the catalog whose name folds to Latin letters', () => {
    const wrong: string[] = [];
    for (const p of catalog().places) {
      // eslint-disable-next-line no-control-regex
      if (!/^[\x00-\x7f]*$/.test(foldName(p.name)) || !slugify(p.name)) continue;
      const last = p.path.slice(p.path.lastIndexOf('/') + 1);
      // A place that lost a contested path carries its GeoNames id after the slug.
      if (last !== slugify(p.name) && last !== `${slugify(p.name)}-${p.id.slice(1)}`) wrong.push(`${p.name}: ${p.path}`);
    }
    expect(wrong).toEqual([]);
    expect(byName('Eminönü', 'İstanbul').path).toBe('turkey/istanbul/eminonu');
    expect(byName('Köln', 'North Rhine-Westphalia').path).toBe('germany/north-rhine-westphalia/koln');
    expect(byName('Kadıköy', 'İstanbul').path).toBe('turkey/istanbul/kadikoy');
  });
});

describe('former paths', () => {
  it('name the place now at the new path, and never a path in use', () => {
    const { places, formerPaths: former } = catalog();
    const current = new Set(places.map((p) => p.path));
    const at = (path: string) => {
      const k = former.paths.indexOf(path);
      return k === -1 ? undefined : places[former.places[k]].path;
    };
    expect(at('turkey/istanbul/eminoenue')).toBe('turkey/istanbul/eminonu');
    expect(at('germany/north-rhine-westphalia/koeln')).toBe('germany/north-rhine-westphalia/koln');
    expect(at('vietnam/all/quan-gjuc-thinh')).toBe('vietnam/all/quan-duc-thinh');
    expect(former.paths.length).toBeGreaterThan(1000);
    expect(former.paths.length).toBe(new Set(former.paths).size);
    for (let k = 0; k < former.paths.length; k++) {
      expect(current.has(former.paths[k]), former.paths[k]).toBe(false);
      // The former rule's slug of the place's name: the same place, not another.
      const place = places[former.places[k]];
      expect(former.paths[k].slice(0, former.paths[k].lastIndexOf('/'))).toBe(place.path.slice(0, place.path.lastIndexOf('/')));
    }
  });

  it('are found by the former rule: the source’s ASCII name, as before', () => {
    expect(formerPlaceSlug('Eminönü', 'Eminoenue', 'x')).toBe('eminoenue');
    expect(formerPlaceSlug('Kadıköy', '', 'x')).toBe('kadikoy');
    expect(formerPaths(['a/b/c', 'a/b/d'], ['a/b/c', 'a/b/e'])).toEqual(new Map([['a/b/e', 1]]));
    // A former path that is now another place's path is that place's: no alias.
    expect(formerPaths(['a/b/x', 'a/b/y'], ['a/b/y', 'a/b/z'])).toEqual(new Map([['a/b/z', 1]]));
  });
});

describe('one path per place', () => {
  const claim = (wanted: string, extra: Partial<PathClaim>): PathClaim => ({ wanted, district: false, rankWeight: 0, geonameId: 1, ...extra });

  it('gives a contested path to the district, then to the place that had it, then to the larger', () => {
    expect(uniquePaths([claim('s/r/holo', { rankWeight: 900, geonameId: 7 }), claim('s/r/holo', { rankWeight: 10, geonameId: 8, held: true })])).toEqual([
      's/r/holo-7',
      's/r/holo',
    ]);
    expect(uniquePaths([claim('t/p/kale', { rankWeight: 900, geonameId: 7, held: true }), claim('t/p/kale', { district: true, geonameId: 0 })])).toEqual([
      't/p/kale-7',
      't/p/kale',
    ]);
    expect(uniquePaths([claim('x/y/z', { rankWeight: 5, geonameId: 3 }), claim('x/y/z', { rankWeight: 5, geonameId: 2 }), claim('x/y/w', {})])).toEqual([
      'x/y/z-3',
      'x/y/z',
      'x/y/w',
    ]);
  });

  it('keeps every place of the catalog at a path of its own', () => {
    const paths = catalog().places.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
