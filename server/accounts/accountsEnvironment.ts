// The one LMDB environment under DATA_DIR/accounts that every embedded store of the accounts layer shares (accounts
// and keys, sign-in and sessions, passkeys, billing), each in its own named databases. Opened once per thread and
// data directory, and closed when the last store that opened it closes.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';

/** Room for every store's databases (LMDB fixes the number when the environment opens). */
const MAX_DATABASES = 32;

export const accountsPath = (dataDir: string): string => path.join(dataDir, 'accounts');

export interface AccountsEnvironment {
  readonly root: RootDatabase;
  /** A named database of the environment (msgpack values, string keys). */
  database<V>(name: string): Database<V, string>;
  /** Lets go of this reference; the environment closes with the last one. */
  close(): Promise<void>;
}

const opened = new Map<string, { root: RootDatabase; references: number }>();

export function openAccountsEnvironment(dataDir: string): AccountsEnvironment {
  const dir = path.resolve(accountsPath(dataDir));
  let entry = opened.get(dir);
  if (!entry) {
    mkdirSync(dir, { recursive: true });
    entry = { root: open({ path: dir, maxDbs: MAX_DATABASES }), references: 0 };
    opened.set(dir, entry);
  }
  entry.references++;
  const shared = entry;
  let closed = false;
  return {
    root: shared.root,
    database: <V>(name: string) => shared.root.openDB<V, string>({ name }),
    async close() {
      if (closed) return;
      closed = true;
      if (--shared.references > 0) return;
      opened.delete(dir);
      await shared.root.close();
    },
  };
}
