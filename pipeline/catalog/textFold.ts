// Folding names for matching (contract: diacritics and case folded the Turkish way, so İstanbul = istanbul =
// ISTANBUL and Kadıköy = kadikoy) and ASCII slugs for site paths.

/** Letters that Unicode decomposition does not reduce to ASCII. */
const SPECIAL: Readonly<Record<string, string>> = {
  ı: 'i', İ: 'i', ß: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', đ: 'd', Đ: 'd', ł: 'l', Ł: 'l',
  þ: 'th', Þ: 'th', ð: 'd', Ð: 'd', ħ: 'h', Ħ: 'h', ŧ: 't', Ŧ: 't', ŋ: 'n', Ŋ: 'n', ĸ: 'k',
  ʻ: '', ʼ: '', '’': '', '‘': '', "'": '', '`': '', '´': '',
};
const SPECIAL_PATTERN = new RegExp(`[${Object.keys(SPECIAL).join('')}]`, 'g');
// eslint-disable-next-line no-misleading-character-class
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/**
 * The form names are compared in: Turkish dotted and dotless i both become i, diacritics go, case goes,
 * runs of spaces, hyphens and dots become one space. Other scripts (Arabic, Cyrillic…) stay as they are.
 */
export function foldName(text: string): string {
  return text
    .replace(SPECIAL_PATTERN, (c) => SPECIAL[c])
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(/[\s\-_.]+/g, ' ')
    .trim();
}

/** Lowercase ASCII slug for site paths: `Kadıköy` → `kadikoy`, `New York City` → `new-york-city`. */
export function slugify(text: string): string {
  return foldName(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
