// The server most site test files run against: the shared catalog, a public base URL (so answers compare byte for
// byte), a key on a business plan; started before the file's tests and stopped after them.
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from './serverProcess.js';

export interface SiteServer {
  readonly server: RunningServer;
  readonly key: string;
  /** An API answer's JSON, asked with the key; fails the test unless the answer is a 200. */
  api(path: string): Promise<any>;
}

export function siteServerForFile(publicBaseUrl: string, env: Record<string, string> = {}): SiteServer {
  let running: { server: RunningServer; key: string } | undefined;
  beforeAll(async () => {
    running = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: publicBaseUrl, ...env });
  }, 60_000);
  afterAll(async () => {
    await running?.server.stop();
  });
  const started = () => {
    if (!running) throw new Error('the site server has not started');
    return running;
  };
  return {
    get server() {
      return started().server;
    },
    get key() {
      return started().key;
    },
    async api(path: string) {
      const response = await fetch(`${started().server.baseUrl}${path}`, { headers: { authorization: `Bearer ${started().key}` } });
      expect(response.status, path).toBe(200);
      return response.json();
    },
  };
}
