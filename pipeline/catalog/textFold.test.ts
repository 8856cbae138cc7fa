import { describe, expect, it } from 'vitest';
import { foldName, slugify } from './textFold.js';

describe('folding names', () => {
  it.each([
    ['İstanbul', 'istanbul'],
    ['ISTANBUL', 'istanbul'],
    ['istanbul', 'istanbul'],
    ['Kadıköy', 'kadikoy'],
    ['KADIKÖY', 'kadikoy'],
    ['Keçiören', 'kecioren'],
    ['Şanlıurfa', 'sanliurfa'],
    ['Ağrı', 'agri'],
    ['Köln', 'koln'],
    ['Île-de-France', 'ile de france'],
    ['  New   York ', 'new york'],
    ['Straße', 'strasse'],
    ['Łódź', 'lodz'],
    ['مكة', 'مكة'],
  ])('%s → %s', (text, folded) => {
    expect(foldName(text)).toBe(folded);
  });

  it('makes lowercase ASCII slugs', () => {
    expect(slugify('Kadıköy')).toBe('kadikoy');
    expect(slugify('New York City')).toBe('new-york-city');
    expect(slugify("Sant Julià de Lòria")).toBe('sant-julia-de-loria');
    expect(slugify('19 Mayıs')).toBe('19-mayis');
    expect(slugify('مكة')).toBe('');
  });
});
