// Vitest global setup: builds one catalog from the real data packages into a temporary DATA_DIR for the whole
// run, and hands its path to the tests (inject('catalogDataDir')).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { runCatalogBuild } from '../pipeline/catalog/catalogBuild.js';

declare module 'vitest' {
  export interface ProvidedContext {
    catalogDataDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'prayer-times-catalog-'));
  runCatalogBuild(dataDir);
  project.provide('catalogDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
