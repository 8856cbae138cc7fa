// What a computed day costs at four latitudes (İstanbul, London, Oslo, Tromsø), a year of days a run, in this
// checkout and, given its path, in another one (taking turns, so both meet the same machine): the ratio is the number
// to read on a shared machine. Days above 56.55° take the general path since issue 33 (low-sun asr, polar rules).
// Usage: node --import tsx scripts/bench-day-cost.mts [/path/to/other/checkout]
import { fileURLToPath } from 'node:url';

const PLACES = [
  [41.0, 28.97, 'Europe/Istanbul', 'diyanet'],
  [51.5, -0.12, 'Europe/London', 'muslimWorldLeague'],
  [59.91, 10.75, 'Europe/Oslo', 'muslimWorldLeague'],
  [69.65, 18.96, 'Europe/Oslo', 'muslimWorldLeague'],
] as const;
const RUNS = 60;

async function costs(root: string): Promise<number[]> {
  const { computeSeries } = await import(`${root}/pipeline/astronomy/prayerTimes.ts`);
  const { methodById } = await import(`${root}/pipeline/astronomy/methods.ts`);
  return PLACES.map(([latitude, longitude, timeZone, method]) => {
    const q = { latitude, longitude, timeZone, method: methodById(method), madhab: 'shafi' };
    for (let w = 0; w < 20; w++) computeSeries(q, { year: 2027, month: 1, day: 1 }, 365, true);
    const started = performance.now();
    // A new point each run (a live request's), a millionth of a degree apart.
    for (let i = 0; i < RUNS; i++) computeSeries({ ...q, latitude: latitude + i * 1e-6 }, { year: 2027, month: 1, day: 1 }, 365, true);
    return ((performance.now() - started) / RUNS / 365) * 1000;
  });
}

// Each measurement in a process of its own (one checkout's code at a time), the two checkouts taking turns, three
// rounds; the median of each.
const here = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
if (process.argv[2] === '--one') {
  console.log(JSON.stringify(await costs(process.argv[3])));
} else {
  const { execFileSync } = await import('node:child_process');
  const other = process.argv[2];
  const measure = (root: string): number[] =>
    JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--one', root], { encoding: 'utf8' }));
  const rounds: Array<{ mine: number[]; theirs?: number[] }> = [];
  for (let r = 0; r < 3; r++) rounds.push({ theirs: other ? measure(other) : undefined, mine: measure(here) });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [i, [latitude, , , method]] of PLACES.entries()) {
    const mine = median(rounds.map((x) => x.mine[i]));
    const line = `${String(latitude).padEnd(6)} ${method.padEnd(18)} ${mine.toFixed(2)} µs a day`;
    if (!other) console.log(line);
    else {
      const theirs = median(rounds.map((x) => x.theirs![i]));
      console.log(`${line}   other ${theirs.toFixed(2)} µs   ratio ${(mine / theirs).toFixed(2)}`);
    }
  }
}
