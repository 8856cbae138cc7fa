// The reference of the precompute benchmarks: adhan-js's PrayerTimes (Muslim World League, its defaults) over the
// days of a year at the given places, in place-days per second. Run in a thread of its own when started as a worker
// (workerData `{ places, year, seconds }`), so that several can run at once, one per core.
import { CalculationMethod, Coordinates, PrayerTimes } from 'adhan';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

export interface AdhanRateInput {
  places: { latitude: number; longitude: number }[];
  year: number;
  seconds: number;
}

export function adhanPlaceDaysPerSecond({ places, year, seconds }: AdhanRateInput): number {
  const params = CalculationMethod.MuslimWorldLeague();
  let placeDays = 0;
  let sink = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  for (let p = 0; performance.now() < deadline; p = (p + 1) % places.length) {
    const coordinates = new Coordinates(places[p].latitude, places[p].longitude);
    for (let day = 0; day < 365; day++) {
      const t = new PrayerTimes(coordinates, new Date(year, 0, 1 + day, 12), params);
      sink += t.fajr.getTime() + t.sunrise.getTime() + t.dhuhr.getTime() + t.asr.getTime() + t.maghrib.getTime() + t.isha.getTime();
    }
    placeDays += 365;
  }
  if (sink === 42) console.log('');
  return placeDays / ((performance.now() - started) / 1000);
}

if (!isMainThread && (workerData as { adhanRate?: AdhanRateInput } | undefined)?.adhanRate) {
  parentPort!.postMessage(adhanPlaceDaysPerSecond((workerData as { adhanRate: AdhanRateInput }).adhanRate));
}
