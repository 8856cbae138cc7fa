// MUIS rules checked on another year and source: adhan's fixture of MUIS's 2020 table (muis.gov.sg,
// pipeline/astronomy/fixtures/adhan/Singapore-Singapore.json) through the same computeDay and dayRecord, with the next-day sun
// and asr's shadow at the asr instant switched on and off (docs/authorities.md). Usage: node --import tsx scripts/muis-2020-check.ts
import { readFileSync } from 'node:fs';
import { methodById } from '../pipeline/astronomy/methods.js';
import { differences, summarize, type OfficialRow } from './official-agreement.js';
const d = JSON.parse(readFileSync('pipeline/astronomy/fixtures/adhan/Singapore-Singapore.json', 'utf8'));
const to24 = (t: string) => { const m = /^(\d{1,2}):(\d{2}) ([AP]M)$/.exec(t)!; const h = (Number(m[1]) % 12) + (m[3] === 'PM' ? 12 : 0); return `${String(h).padStart(2, '0')}:${m[2]}`; };
const rows: OfficialRow[] = d.times.map((t: any) => ({ place: 'SG', latitude: d.params.latitude, longitude: d.params.longitude, timeZone: 'Asia/Singapore', date: t.date, heldOut: false,
  times: Object.fromEntries(['fajr','sunrise','dhuhr','asr','maghrib','isha'].map(n => [n, to24(t[n])])) }));
const m = methodById('singapore') as any;
for (const [off, asr] of [[0, false], [1, false], [1, true], [0, true], [-1, false]] as const) {
  m.sunDayOffset = off; m.asrShadowAtAsr = asr;
  const s = summarize(differences('singapore', rows));
  console.log(`sunDayOffset ${off} asrAtAsr ${asr}:`, Object.entries(s).map(([k, v]) => `${k} ${(100 * v!.exact).toFixed(0)}/${(100 * v!.withinOne).toFixed(0)}/${v!.worst}`).join('  '));
}
