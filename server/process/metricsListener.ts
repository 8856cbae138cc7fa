// The metrics' own listener (contract, "Operations"): METRICS_HOST:METRICS_PORT, loopback by default, never the
// public port. node:http in the primary thread, apart from the serving threads' uWebSockets.js apps: a scrape
// every 15 s or so needs nothing faster, and a slow scrape never takes a serving thread's time. GET (or HEAD)
// /metrics answers Prometheus's text format; any other path is 404, any other method 405.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { prometheusContentType } from 'prom-client';
import { log } from '../log.js';

export const METRICS_PATH = '/metrics';

export interface MetricsListener {
  /** The port bound (METRICS_PORT=0: the kernel's choice). */
  port: number;
  close(): Promise<void>;
}

export function startMetricsListener(host: string, port: number, scrape: () => Promise<string>): Promise<MetricsListener> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const plain = (status: number, text: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
      response.end(request.method === 'HEAD' ? undefined : text);
    };
    if (path !== METRICS_PATH) return plain(404, `Not found: the metrics are at ${METRICS_PATH}.\n`);
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Use GET.\n', { Allow: 'GET, HEAD' });
    scrape().then(
      (text) => {
        response.writeHead(200, { 'Content-Type': prometheusContentType, 'Cache-Control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        log('error', 'metrics_scrape_failed', { error: String((error as Error)?.stack ?? error) });
        plain(500, 'The metrics could not be gathered; the server log says why.\n');
      },
    );
  });
  // A scraper keeps its connection; a stop should not wait for it.
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
