// A short-lived thread that reads the catalog file and builds its shared form (catalogTables.ts) for the primary,
// which hands it to every serving thread. Decoding the file takes a few hundred MB of heap for a moment; in a thread
// of its own that memory goes back to the system when the thread ends, instead of staying in the primary's heap.
// The zone index (pipeline/zones/zoneIndexFile.ts), which lies beside the catalog, is read here too.
import { parentPort, workerData } from 'node:worker_threads';
import { readZoneIndex, type ZoneIndexRead } from '../../pipeline/zones/zoneIndexFile.js';
import { PlaceCatalog } from '../places/placeCatalog.js';
import type { SharedCatalog } from '../places/catalogTables.js';

export type FromCatalogLoader = { type: 'loaded'; catalog: SharedCatalog | undefined; zones: ZoneIndexRead } | { type: 'failed'; error: string };

const port = parentPort!;
try {
  const { dataDir } = workerData as { dataDir: string };
  port.postMessage({ type: 'loaded', catalog: PlaceCatalog.share(dataDir), zones: readZoneIndex(dataDir) } satisfies FromCatalogLoader);
} catch (error) {
  port.postMessage({ type: 'failed', error: String(error) } satisfies FromCatalogLoader);
}
port.close();
