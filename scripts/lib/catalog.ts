// The scripts run against the catalog under DATA_DIR; without one they stop with the command that builds it.
import { readCatalog } from '../../pipeline/catalog/catalogFile.js';
import { dataDirFrom } from '../../server/process/config.js';

export function requireCatalog(): { dataDir: string; catalog: NonNullable<ReturnType<typeof readCatalog>> } {
  const dataDir = dataDirFrom();
  const catalog = readCatalog(dataDir);
  if (!catalog) {
    console.error(`No catalog under ${dataDir}; build it first: npm run cli -- catalog build`);
    process.exit(1);
  }
  return { dataDir, catalog };
}
