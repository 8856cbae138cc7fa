// Requests with a new point each (scripts/wrk/newPoint.lua), as the benchmarks and the profiler send them: a request
// is a path, or `near:<path start>` (within about 20 km of one of the catalog's 60 largest places) or
// `globe:<path start>` (anywhere from 55° S to 70° N), the path start ending in `?` or `&`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CatalogFile } from '../../pipeline/catalog/catalogFile.js';
import type { WrkOptions } from './wrk.js';

const NEW_POINT_SCRIPT = fileURLToPath(new URL('../wrk/newPoint.lua', import.meta.url));

let placesFile: string | undefined;

/** The 60 largest places' coordinates, one `lat lon` a line, written once per process. */
function largestPlacesFile(catalog: CatalogFile): string {
  if (!placesFile) {
    placesFile = path.join(mkdtempSync(path.join(tmpdir(), 'new-points-')), 'places.txt');
    const largest = catalog.places.filter((p) => p.population).sort((a, b) => b.population! - a.population!).slice(0, 60);
    writeFileSync(placesFile, largest.map((p) => `${p.latitude} ${p.longitude}\n`).join(''));
  }
  return placesFile;
}

/** wrk's URL and script options for a request (see the top of this file) to the server at `baseUrl`. */
export function wrkTarget(baseUrl: string, request: string, catalog: CatalogFile): { url: string; options: Pick<WrkOptions, 'script' | 'scriptArgs'> } {
  const [mode, pathStart] = /^(near|globe):(.*)$/.exec(request)?.slice(1) ?? [];
  if (!mode) return { url: baseUrl + request, options: {} };
  return { url: `${baseUrl}/`, options: { script: NEW_POINT_SCRIPT, scriptArgs: [pathStart, mode, mode === 'near' ? largestPlacesFile(catalog) : ''] } };
}
