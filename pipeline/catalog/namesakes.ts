// Places of one name in one region (two Yenices in Bursa, a village and the district of Kumluca): each page must say
// which one it is. The main one (the one that keeps the bare path: the district, else the most populous) keeps its
// bare name; every other gets a qualifier shown after its name, `Yenice (İnegöl)`: the district (GeoNames admin2) it
// lies in when that tells it from all its namesakes, else its coordinates, `Yenice (40.06, 29.24)`.
import { precedence, type PathClaim } from './placePaths.js';
import { foldName } from './textFold.js';

export interface Namesake extends Omit<PathClaim, 'wanted'> {
  name: string;
  country: string;
  region: string;
  /** The district (admin2) the place lies in, '' when unknown. */
  area: string;
  latitude: number;
  longitude: number;
}

/** The coordinates as a qualifier: 2 decimals (about a kilometre), more when two namesakes are closer. */
const coordinates = (p: Namesake, decimals: number): string => `${p.latitude.toFixed(decimals)}, ${p.longitude.toFixed(decimals)}`;

/** The qualifier of each place ('' for most). */
export function qualifiers(places: readonly Namesake[]): string[] {
  const out = places.map(() => '');
  const groups = new Map<string, number[]>();
  places.forEach((p, i) => {
    const key = `${p.country}\u0000${p.region}\u0000${foldName(p.name)}`;
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const areaCount = new Map<string, number>();
    for (const i of group) {
      const area = foldName(places[i].area);
      if (area) areaCount.set(area, (areaCount.get(area) ?? 0) + 1);
    }
    // The main one: the one that kept its bare path (`held`), else as placePaths.ts's precedence says.
    const main = group.reduce((best, i) => (precedence(places[i], places[best]) < 0 ? i : best));
    const others = group.filter((i) => i !== main);
    for (const i of others) {
      const p = places[i];
      const area = foldName(p.area);
      // The district helps only when no namesake shares it and it is not the place's own name or its region's.
      if (area && areaCount.get(area) === 1 && area !== foldName(p.name) && area !== foldName(p.region)) out[i] = p.area;
    }
    const pending = others.filter((i) => out[i] === '');
    for (let decimals = 2; decimals <= 5; decimals++) {
      const seen = new Map<string, number>();
      for (const i of pending) {
        const text = coordinates(places[i], decimals);
        seen.set(text, (seen.get(text) ?? 0) + 1);
      }
      for (const i of pending) out[i] = coordinates(places[i], decimals);
      if ([...seen.values()].every((n) => n === 1)) break;
    }
  }
  return out;
}
