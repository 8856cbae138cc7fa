// How closely `method=diyanet` prints Diyanet's published minute: every record of the development sample
// (../shared/reference/diyanet-dev-sample.json) through the /times route for the catalog place, per prayer:
// the share of exact minutes, of minutes within one, and the largest difference.
// Usage: npm run diyanet:agreement   (DATA_DIR must hold a catalog)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dataDirFrom } from '../server/process/config.js';
import { answerOperation } from '../server/api/operations.js';
import { PlaceCatalog } from '../server/places/placeCatalog.js';

export const SAMPLE = fileURLToPath(new URL('../../shared/reference/diyanet-dev-sample.json', import.meta.url));
export const COLUMNS = { imsak: 'fajr', gunes: 'sunrise', ogle: 'dhuhr', ikindi: 'asr', aksam: 'maghrib', yatsi: 'isha' } as const;

export interface SampleRecord {
  city: string;
  date: string;
  imsak: string;
  gunes: string;
  ogle: string;
  ikindi: string;
  aksam: string;
  yatsi: string;
}

export function sampleRecords(file = SAMPLE): SampleRecord[] {
  return JSON.parse(readFileSync(file, 'utf8')).sources.flatMap((s: { records: SampleRecord[] }) => s.records);
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Ours minus published, in minutes, for each record and prayer column. */
export function differences(catalog: PlaceCatalog, records: SampleRecord[]): Array<Record<keyof typeof COLUMNS, number>> {
  return records.map((r) => {
    // The /times operation as the API and the site call it (a kept answer comes back as its object too).
    const query = { city: `${r.city}, TR`, date: r.date, method: 'diyanet' };
    const body = answerOperation('getPrayerTimes', query, { now: Date.now(), catalog, store: undefined }) as { times: Record<string, string> };
    return Object.fromEntries(Object.entries(COLUMNS).map(([column, name]) => [column, minutes(body.times[name]) - minutes(r[column as keyof typeof COLUMNS])])) as Record<keyof typeof COLUMNS, number>;
  });
}

export function summarize(diffs: Array<Record<string, number>>): Record<string, { exact: number; withinOne: number; largest: number }> {
  return Object.fromEntries(
    Object.keys(COLUMNS).map((column) => {
      const d = diffs.map((x) => x[column]);
      return [column, { exact: d.filter((x) => x === 0).length / d.length, withinOne: d.filter((x) => Math.abs(x) <= 1).length / d.length, largest: Math.max(...d.map(Math.abs)) }];
    }),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const catalog = PlaceCatalog.load(dataDirFrom(), { publicBaseUrl: () => '' });
  if (!catalog) throw new Error('no catalog: npm run cli -- catalog build');
  const records = sampleRecords();
  const summary = summarize(differences(catalog, records));
  console.log(`method=diyanet against ${records.length} published days (${new Set(records.map((r) => r.city)).size} provincial centres):`);
  console.log('prayer   exact   within 1 min   largest difference');
  for (const [column, s] of Object.entries(summary)) {
    console.log(`${column.padEnd(7)} ${(100 * s.exact).toFixed(0).padStart(5)}%  ${(100 * s.withinOne).toFixed(0).padStart(11)}%   ${s.largest} min`);
  }
}
