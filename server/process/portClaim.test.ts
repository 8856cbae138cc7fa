// One port, one server: a server refuses to start on a port another process serves (SO_REUSEPORT would have let it
// join and take part of the connections), while its own serving threads share the port.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import { closeApp, uWS } from '../edge/uws.js';
import { lockName } from './portClaim.js';

const QIBLA = '/api/v1/qibla?lat=21.4&lon=39.8';

/** A GET on a connection of its own (no pooling): the kernel picks a listen socket for each connection. */
function getOnNewConnection(port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: false, headers: { 'X-API-Key': key } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
  });
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts a server expected to refuse; resolves with what startServer rejected with. */
async function refusedStart(env: Record<string, string>): Promise<string> {
  let started: RunningServer | undefined;
  try {
    started = await startServer(env);
  } catch (error) {
    return (error as Error).message;
  }
  await started.stop();
  throw new Error(`the server started on ${started.port}`);
}

let first: RunningServer;
let key: string;

beforeAll(async () => {
  // Two serving threads: the server's own threads share its port.
  ({ server: first, key } = await startServerWithKey({ WORKERS: '2' }));
});
afterAll(async () => {
  await first?.stop();
});

describe('a second server on a port already served', () => {
  it('exits non-zero with a message naming the port, and the first answers every request', async () => {
    const message = await refusedStart({ PORT: String(first.port) });
    expect(message).toMatch(/^server exited with 1 before listening/);
    expect(message).toContain(`error: cannot start: 127.0.0.1:${first.port} is already in use by another process`);

    // The key exists only in the first server's data: a request answered by any other process would be 401.
    const statuses = await Promise.all(Array.from({ length: 40 }, () => getOnNewConnection(first.port, QIBLA, key)));
    expect(statuses).toEqual(Array(40).fill(200));
    expect(first.process.exitCode).toBeNull();
  });

  it('refuses a port another program serves with SO_REUSEPORT (uWebSockets.js, as an older server of ours would)', async () => {
    // uWebSockets.js sets SO_REUSEPORT on a given port only, not on port 0.
    const port = await freePort();
    const app = uWS.App().any('/*', (res) => void res.end('other'));
    await new Promise<void>((resolve, reject) => app.listen('127.0.0.1', port, (socket) => (socket ? resolve() : reject(new Error('no listen')))));
    try {
      const message = await refusedStart({ PORT: String(port) });
      expect(message).toContain(`127.0.0.1:${port} is already in use by another process`);
    } finally {
      closeApp(app);
    }
  });

  it('refuses while another server of ours holds the address’s lock (between its claim and its threads’ listen)', async () => {
    const port = await freePort();
    const lock = net.createServer();
    await new Promise<void>((resolve) => lock.listen({ path: lockName('127.0.0.1', port) }, resolve));
    try {
      const message = await refusedStart({ PORT: String(port) });
      expect(message).toContain(`127.0.0.1:${port} is already in use by another process`);
    } finally {
      await new Promise((resolve) => lock.close(resolve));
    }
  });
});
