// The demo account of `make run`: its key kept in DATA_DIR/demo-key.txt (mode 600), so that every start can print
// a working curl. The CLI creates it; the server's start-up banner names the file, never the key.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AccountStore } from './accountStore.js';
import { hashKey, isWellFormedKey } from './keys.js';

export const DEMO_EMAIL = 'demo@example.com';
/** Where `npm run cli -- demo` keeps the demo key (the server's start-up banner names the file, never the key). */
export const demoKeyFile = (dataDir: string): string => path.join(dataDir, 'demo-key.txt');

/** The demo account's key: kept in DATA_DIR/demo-key.txt (mode 600) so `make run` can print it every time. */
export async function ensureDemoKey(store: AccountStore, dataDir: string): Promise<string> {
  const file = demoKeyFile(dataDir);
  const saved = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  const record = isWellFormedKey(saved) ? store.allKeys().get(hashKey(saved)) : undefined;
  if (record && !record.revokedAt) return saved;
  const { key } = await store.createKey(DEMO_EMAIL, 'business', 'Demo key');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

