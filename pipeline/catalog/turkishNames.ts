// The Turkish spelling of places in Türkiye. GeoNames writes some of them in ASCII or as other languages do
// (Istanbul, Sarigerme, Hakkâri); the official lists the catalog reads (the 81 provinces, their 973 districts, their
// neighbourhoods and villages) spell them as Diyanet and the state do (İstanbul, Sarıgerme, Hakkari). A place keeps
// one name, its native spelling, on every page and in the API, in both languages.
import { foldName } from './textFold.js';
import type { TurkishProvince } from './sources.js';

/** A folded name whose official spellings disagree (two villages, Çayır and Cayır): left as GeoNames has it. */
const AMBIGUOUS = '';

/**
 * True when `official` writes `name` with the same letters, only adding marks: `Sarigerme` → `Sarıgerme`, `Istanbul`
 * → `İstanbul`, `Akcakışla` → `Akçakışla`; never `Yalangöz` → `Yalangoz` (the neighbourhood list drops marks here
 * and there, where GeoNames has them right).
 */
function onlyAddsMarks(name: string, official: string): boolean {
  const a = [...name];
  const b = [...official];
  if (a.length !== b.length) return false;
  // eslint-disable-next-line no-control-regex
  return a.every((c, i) => c === b[i] || /^[\x00-\x7f]$/.test(c));
}

export class TurkishSpellings {
  /** Province name → folded name → its official spelling (or AMBIGUOUS), and whether a state list (the province's own,
   * its districts') gives it rather than the neighbourhood list. */
  private readonly byProvince = new Map<string, Map<string, { spelling: string; state: boolean }>>();

  /** `neighbourhoods`: plate code → the province's neighbourhood and village names (sources.ts). */
  constructor(provinces: readonly TurkishProvince[], neighbourhoods: ReadonlyMap<string, readonly string[]>) {
    for (const province of provinces) {
      const spellings = new Map<string, { spelling: string; state: boolean }>();
      // The province's own name first, then its districts', then its neighbourhoods': an earlier list wins, and
      // within the last list two spellings of one folded name cancel out.
      const layers: ReadonlyArray<readonly string[]> = [[province.name], province.districts, neighbourhoods.get(province.code) ?? []];
      layers.forEach((layer, level) => {
        const added = new Map<string, string>();
        for (const name of layer) {
          const folded = foldName(name);
          if (!folded || spellings.has(folded)) continue;
          const before = added.get(folded);
          added.set(folded, before === undefined || before === name ? name : AMBIGUOUS);
        }
        for (const [folded, spelling] of added) spellings.set(folded, { spelling, state: level < 2 });
      });
      this.byProvince.set(province.name, spellings);
    }
  }

  /**
   * The official spelling of a place's name in its province: the province's or a district's always; a neighbourhood's
   * or village's when it only adds marks to the name. Else the name as given.
   */
  spell(province: string, name: string): string {
    const official = this.byProvince.get(province)?.get(foldName(name));
    if (!official || official.spelling === AMBIGUOUS) return name;
    return official.state || onlyAddsMarks(name, official.spelling) ? official.spelling : name;
  }
}
