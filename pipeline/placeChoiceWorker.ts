// The thread that reads the catalog and chooses a precompute's places (placeChoice.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { readCatalog } from './catalog/catalogFile.js';
import { PrecomputeError, selectPlaces, type PlaceChoiceMessage } from './placeChoice.js';
import { columnBuffers, placeColumns } from './placeColumns.js';

const { dataDir, scope } = workerData as { dataDir: string; scope: string };
const send = (message: PlaceChoiceMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);
try {
  const catalog = readCatalog(dataDir);
  if (!catalog) {
    send({ error: `no catalog under ${dataDir}; build it first: npm run cli -- catalog build`, operator: true });
  } else {
    const places = placeColumns(selectPlaces(catalog.places, scope));
    send({ catalogBuiltAt: catalog.builtAt, places }, columnBuffers(places));
  }
} catch (error) {
  send({ error: error instanceof Error ? error.message : String(error), operator: error instanceof PrecomputeError });
}
