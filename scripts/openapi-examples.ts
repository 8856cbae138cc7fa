// Writes server/openapiExamples.json: the examples of the OpenAPI description, made by the real handlers against
// the place catalog of DATA_DIR (./data by default). Run after a change to a handler, the catalog's sources or the
// example requests; a test fails until then.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXAMPLES_FILE } from '../server/api/openapi.js';
import { buildExamples, EXAMPLE_BASE_URL } from '../server/api/openapiExamples.js';
import { PlaceCatalog } from '../server/places/placeCatalog.js';

const dataDir = process.env.DATA_DIR || './data';
const catalog = PlaceCatalog.load(dataDir, { publicBaseUrl: () => EXAMPLE_BASE_URL });
if (!catalog) {
  console.error(`No place catalog in ${dataDir}: build one first (npm run cli -- catalog build).`);
  process.exit(1);
}
writeFileSync(EXAMPLES_FILE, `${JSON.stringify(buildExamples(catalog), null, 1)}\n`);
console.log(`wrote ${fileURLToPath(EXAMPLES_FILE)}`);
