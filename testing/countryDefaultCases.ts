// Test fixture shared by the API tests without a catalog (api.test.ts) and with one (cities.test.ts): a point in a
// country, and the method and madhab the contract gives that country by default.
export const COUNTRY_DEFAULT_CASES: ReadonlyArray<[country: string, lat: number, lon: number, method: string, madhab: string]> = [
  ['TR', 39.93, 32.86, 'diyanet', 'shafi'],
  ['PK', 24.86, 67.0, 'karachi', 'hanafi'],
  ['SA', 21.42, 39.83, 'ummAlQura', 'shafi'],
  ['US', 40.71, -74.0, 'isna', 'shafi'],
  ['DE', 52.52, 13.4, 'muslimWorldLeague', 'shafi'],
  ['IR', 35.69, 51.39, 'tehran', 'shafi'],
  ['ID', -6.2, 106.85, 'kemenag', 'shafi'],
  ['OM', 23.59, 58.38, 'oman', 'shafi'],
  ['BA', 43.86, 18.41, 'bosnia', 'shafi'],
  ['BN', 4.89, 114.94, 'brunei', 'shafi'],
];
