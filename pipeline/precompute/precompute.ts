// `precompute`: yearly timetables for the catalog's places, by method and madhab, into a new store that becomes the
// live one when complete. Work is spread over worker threads, one per core; the main thread writes to LMDB.
import { TZDATA_VERSION } from '../zones/zoneRules.js';
import { availableParallelism } from 'node:os';
import { defaultMadhab, defaultMethodId } from '../astronomy/countryDefaults.js';
import { MADHABS, METHOD_IDS, METHODS_FINGERPRINT, methodById, type Madhab } from '../astronomy/methods.js';
import { zoneFor } from '../astronomy/methodZones.js';
import { choosePlaces, PrecomputeError } from './placeChoice.js';
import { placeAt, type JobPlace, type PlaceColumns } from './placeColumns.js';
import { startPipelineWorker } from './pipelineWorker.js';
import type { PrecomputeJob, PrecomputeResult } from './precomputeWorker.js';
import { currentBuild, directorySize, removeOldBuilds, STORE_FORMAT, timetableKey, TimetableWriter, type StoreMeta } from '../store/timetableStore.js';

export interface PrecomputeOptions {
  dataDir: string;
  years: number[];
  /** `default` (each place's country default), `all`, or ids. */
  methods: string;
  /** `default`, `all`, or madhabs. */
  madhabs: string;
  /** `all`, `quick` (Turkish districts and the largest cities), `top:N`, `places:<id>,<id>`, or country codes (`TR,DE`). */
  scope: string;
  workers?: number;
  /** Called often with the progress so far. */
  onProgress?: (progress: Progress) => void;
}

export interface Progress {
  done: number;
  total: number;
  days: number;
  seconds: number;
}

export interface PrecomputeSummary extends Progress {
  places: number;
  build: string;
  storeBytes: number;
  removedBuilds: string[];
}

export { PrecomputeError, selectPlaces } from './placeChoice.js';

const JOBS_PER_MESSAGE = 16;
const MAX_QUEUED_WRITES = 4000;
const WORKER_OLD_GENERATION_MB = 96;

function chosen<T extends string>(option: string, all: readonly T[], what: string): T[] | 'default' {
  if (option === 'default') return 'default';
  if (option === 'all') return [...all];
  const list = option.split(',').map((x) => x.trim()) as T[];
  const unknown = list.filter((x) => !all.includes(x));
  if (unknown.length) throw new PrecomputeError(`unknown ${what}: ${unknown.join(', ')} (${what}s: ${all.join(', ')}, or all, or default)`);
  return list;
}

/** The job's zone, for a method that computes a zone's places at the zone's point (methodZones.ts). */
const zoneOf = (method: string, place: JobPlace): { zone?: string } => {
  const zone = zoneFor(methodById(method), place);
  return zone ? { zone: zone.code } : {};
};

/**
 * The jobs of a run, place by place; generated as the workers ask for them, so a run never holds them all. For places
 * in key order (as placeChoice.ts gives them), the jobs come in the store's key order too, and the writer appends.
 */
export function* planJobs(places: PlaceColumns, options: Pick<PrecomputeOptions, 'years' | 'methods' | 'madhabs'>): Generator<PrecomputeJob> {
  const chosenMethods = chosen(options.methods, METHOD_IDS, 'method');
  const chosenMadhabs = chosen<Madhab>(options.madhabs, MADHABS, 'madhab');
  const methods = chosenMethods === 'default' ? chosenMethods : [...chosenMethods].sort();
  const madhabs = chosenMadhabs === 'default' ? chosenMadhabs : [...chosenMadhabs].sort();
  const years = [...options.years].sort((a, b) => a - b);
  for (let i = 0; i < places.ids.length; i++) {
    const place = placeAt(places, i);
    for (const method of methods === 'default' ? [defaultMethodId(place.country)] : methods) {
      for (const madhab of madhabs === 'default' ? [defaultMadhab(place.country)] : madhabs) {
        for (const year of years) {
          yield {
            key: timetableKey(place.id, method, madhab, year),
            latitude: place.latitude,
            longitude: place.longitude,
            timeZone: place.timeZone,
            method,
            madhab,
            year,
            ...zoneOf(method, place),
          };
        }
      }
    }
  }
}

/** How many jobs planJobs gives (checking the options as it does). */
export function countJobs(places: PlaceColumns, options: Pick<PrecomputeOptions, 'years' | 'methods' | 'madhabs'>): number {
  const methods = chosen(options.methods, METHOD_IDS, 'method');
  const madhabs = chosen<Madhab>(options.madhabs, MADHABS, 'madhab');
  return places.ids.length * (methods === 'default' ? 1 : methods.length) * (madhabs === 'default' ? 1 : madhabs.length) * options.years.length;
}

export async function precompute(options: PrecomputeOptions): Promise<PrecomputeSummary> {
  if (options.years.some((y) => !Number.isInteger(y) || y < 1900 || y > 2100)) throw new PrecomputeError('years must be 1900 to 2100');
  const { catalogBuiltAt, places } = await choosePlaces(options.dataDir, options.scope);
  const placeCount = places.ids.length;
  const jobCount = countJobs(places, options);
  const jobs = planJobs(places, options);
  const live = currentBuild(options.dataDir);
  // Leftovers of runs that never finished (and builds older than the live one) go before a new one starts.
  removeOldBuilds(options.dataDir, new Set(live ? [live] : []));

  const writer = TimetableWriter.create(options.dataDir);
  const started = performance.now();
  const progress: Progress = { done: 0, total: jobCount, days: 0, seconds: 0 };
  const workerCount = Math.max(1, Math.min(options.workers ?? availableParallelism(), Math.ceil(jobCount / JOBS_PER_MESSAGE)));
  // A worker's garbage is short-lived (a year's days, encoded and sent); a bounded old generation keeps the process's
  // resident memory down without costing time.
  const workers = await Promise.all(
    Array.from({ length: workerCount }, () =>
      startPipelineWorker(new URL('./precomputeWorker.ts', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB } }),
    ),
  );
  // Results are written in the order the jobs were sent (the store's key order), a batch as soon as those before it
  // are: two workers finish out of turn, so a finished batch may wait for at most a few others (never more than the
  // batches in flight). The writer gathers a few MB per transaction.
  let nextBatch = 0;
  let nextToWrite = 0;
  const finished = new Map<number, PrecomputeResult[]>();
  const writeFinished = (): void => {
    for (let results = finished.get(nextToWrite); results !== undefined; results = finished.get(nextToWrite)) {
      finished.delete(nextToWrite++);
      for (const r of results) writer.put(r.key, Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength));
    }
  };
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            // The batches this worker has been sent and not answered, oldest first: it answers them in turn.
            const sent: number[] = [];
            const send = () => {
              const batch: PrecomputeJob[] = [];
              for (let r = jobs.next(); !r.done; r = jobs.next()) if (batch.push(r.value) === JOBS_PER_MESSAGE) break;
              if (batch.length === 0) return false;
              worker.postMessage(batch);
              sent.push(nextBatch++);
              return true;
            };
            let inFlight = 0;
            worker.on('error', reject);
            worker.on('exit', (code) => code !== 0 && reject(new Error(`precompute worker exited with ${code}`)));
            worker.on('message', async (results: PrecomputeResult[]) => {
              inFlight--;
              finished.set(sent.shift()!, results);
              writeFinished();
              for (const r of results) progress.days += r.days;
              progress.done += results.length;
              progress.seconds = (performance.now() - started) / 1000;
              options.onProgress?.(progress);
              // A failed write stops the run at once, as does a backlog (waiting for it says whether a write failed).
              if (writer.failed || writer.queued > MAX_QUEUED_WRITES) {
                try {
                  await writer.committed();
                } catch (error) {
                  return reject(error);
                }
              }
              if (send()) inFlight++;
              if (inFlight === 0) resolve();
            });
            // Two messages in flight keep a worker busy while the main thread writes.
            for (let i = 0; i < 2; i++) if (send()) inFlight++;
            if (inFlight === 0) resolve();
          }),
      ),
    );
    await writer.committed();
  } catch (error) {
    await Promise.all(workers.map((w) => w.terminate()));
    await writer.abort();
    throw error;
  }
  await Promise.all(workers.map((w) => w.terminate()));
  const meta: StoreMeta = {
    builtAt: new Date().toISOString(),
    catalogBuiltAt,
    tzdata: TZDATA_VERSION,
    methodsFingerprint: METHODS_FINGERPRINT,
    storeFormat: STORE_FORMAT,
    years: [...options.years].sort(),
    scope: options.scope,
    methods: options.methods,
    madhabs: options.madhabs,
    places: placeCount,
    placeYears: jobCount,
  };
  await writer.finish(meta);
  const storeBytes = directorySize(writer.directory);
  // The build that was live a moment ago stays for a while: a server may still be reading it.
  const removedBuilds = removeOldBuilds(options.dataDir, new Set([writer.name, ...(live ? [live] : [])]));
  progress.seconds = (performance.now() - started) / 1000;
  return { ...progress, places: placeCount, build: writer.name, storeBytes, removedBuilds };
}

/** Progress for people: a bar with rate and ETA on a terminal, a plain line every few seconds otherwise. */
export function progressReporter(stream: NodeJS.WriteStream): (p: Progress) => void {
  let lastLine = 0;
  const tty = stream.isTTY;
  return (p) => {
    const now = performance.now();
    const finished = p.done === p.total;
    if (!finished && now - lastLine < (tty ? 200 : 5000)) return;
    lastLine = now;
    const rate = p.seconds > 0 ? p.done / p.seconds : 0;
    const eta = rate > 0 ? (p.total - p.done) / rate : 0;
    const fraction = p.total ? p.done / p.total : 1;
    const clock = (s: number) => (s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${Math.round(s)}s`);
    const text = `${(fraction * 100).toFixed(1).padStart(5)}% ${p.done.toLocaleString('en')}/${p.total.toLocaleString('en')} place-years  ${rate.toFixed(0)}/s  ETA ${clock(eta)}`;
    if (tty) {
      const width = 30;
      const filled = Math.round(fraction * width);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}${finished ? '\n' : ''}`);
    } else {
      stream.write(`precompute ${text}\n`);
    }
  };
}
