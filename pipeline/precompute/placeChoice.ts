// Which places a precompute computes (its `--scope`), chosen in a thread of its own: decoding the catalog makes about
// 115 MB of garbage and msgpackr keeps the file's 47 MB until its next decode, all of which the main thread's heap
// would hold through the run. The thread ends once it has sent the chosen places as columns.
import type { StoredPlace } from '../catalog/catalogFile.js';
import type { PlaceColumns } from './placeColumns.js';
import { startPipelineWorker } from './pipelineWorker.js';

export class PrecomputeError extends Error {}

const QUICK_LARGEST_CITIES = 1000;

export function selectPlaces(places: readonly StoredPlace[], scope: string): StoredPlace[] {
  const byPopulation = () => [...places].filter((p) => p.type === 'city').sort((a, b) => (b.population ?? 0) - (a.population ?? 0));
  if (scope === 'all') return [...places];
  if (scope === 'quick') {
    const districts = places.filter((p) => p.type === 'district');
    return [...districts, ...byPopulation().slice(0, QUICK_LARGEST_CITIES)];
  }
  const top = /^top:(\d+)$/.exec(scope);
  if (top) return byPopulation().slice(0, Number(top[1]));
  if (scope.startsWith('places:')) {
    const ids = scope.slice('places:'.length).split(',');
    const found = places.filter((p) => ids.includes(p.id));
    const missing = ids.filter((id) => !found.some((p) => p.id === id));
    if (missing.length) throw new PrecomputeError(`no catalog place with id ${missing.join(', ')}`);
    return found;
  }
  const countries = scope.split(',').map((c) => c.trim().toUpperCase());
  if (countries.every((c) => /^[A-Z]{2}$/.test(c))) return places.filter((p) => countries.includes(p.country));
  throw new PrecomputeError(`--scope must be all, quick, top:N, places:<id>,<id> or country codes like TR,DE; not "${scope}"`);
}

export interface ChosenPlaces {
  catalogBuiltAt: string;
  places: PlaceColumns;
}

/** What placeChoiceWorker.ts sends: the places, or why there are none (`operator`: a PrecomputeError). */
export type PlaceChoiceMessage = ChosenPlaces | { error: string; operator: boolean };

export async function choosePlaces(dataDir: string, scope: string): Promise<ChosenPlaces> {
  const worker = await startPipelineWorker(new URL('./placeChoiceWorker.ts', import.meta.url), { workerData: { dataDir, scope } });
  const message = await new Promise<PlaceChoiceMessage>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread choosing the places exited with ${code} before answering`)));
  });
  if ('error' in message) throw message.operator ? new PrecomputeError(message.error) : new Error(message.error);
  return message;
}
