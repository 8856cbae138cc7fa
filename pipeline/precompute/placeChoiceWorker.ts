// The thread that reads the catalog and chooses a precompute's places (placeChoice.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { readCatalog } from '../catalog/catalogFile.js';
import { PrecomputeError, selectPlaces, type PlaceChoiceMessage } from './placeChoice.js';
import { columnBuffers, placeColumns } from './placeColumns.js';

const { dataDir, scope } = workerData as { dataDir: string; scope: string };
const send = (message: PlaceChoiceMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);
try {
  const catalog = readCatalog(dataDir);
  if (!catalog) {
    send({ error: `no catalog under ${dataDir}; build it first: npm run cli -- catalog build`, operator: true });
  } else {
    // In the store's key order (a key starts with the place's id and a slash), whatever the scope chose them by: the
    // writer then appends (timetableStore.ts), and reads back no pages it wrote long before.
    const keyOf = (p: { id: string }) => `${p.id}/`;
    const byKey = selectPlaces(catalog.places, scope).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    const places = placeColumns(byKey);
    send({ catalogBuiltAt: catalog.builtAt, places }, columnBuffers(places));
  }
} catch (error) {
  send({ error: error instanceof Error ? error.message : String(error), operator: error instanceof PrecomputeError });
}
