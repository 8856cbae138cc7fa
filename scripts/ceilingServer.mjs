// This machine's ceiling for the stack: a minimal uWebSockets.js server answering a constant body of a given size
// with the same headers as the API (content type, CORS, request id, the rate-limit and quota block), on one thread
// or on several sharing the port as the API's serving threads do. Plain JavaScript: nothing to compile per thread.
// Given a file and a content coding, it answers that file's bytes as they are, with `Content-Encoding` and `Vary`:
// the ceiling for a compressed answer of the same bytes.
// Usage: node scripts/ceilingServer.mjs <port> <body bytes> [threads] [body file] [content coding]
//   (prints {"event":"listening","port":…})
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const uWS = createRequire(import.meta.url)('uWebSockets.js');
const args = process.argv.slice(2);
const [port, bodyBytes, threads] = isMainThread ? args.slice(0, 3).map(Number) : [workerData.port, workerData.bodyBytes, 1];
const [bodyFile, coding] = isMainThread ? args.slice(3) : [workerData.bodyFile, workerData.coding];
const body = bodyFile ? readFileSync(bodyFile) : JSON.stringify({ padding: 'x'.repeat(Math.max(0, bodyBytes - 14)) });
const expose = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Quota-Limit, X-Quota-Remaining, X-Quota-Reset, Retry-After, X-Request-Id';

function listen(onPort, done) {
  let n = 0;
  uWS
    .App()
    .any('/*', (res, req) => {
      req.getHeader('authorization');
      req.getHeader('x-api-key');
      n++;
      res.cork(() => {
        res.writeStatus('200 OK');
        res.writeHeader('Content-Type', `application/json; charset=utf-8\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: ${expose}`);
        res.writeHeader('X-Request-Id', `ceiling-${n.toString(36)}`);
        res.writeHeader('RateLimit-Limit', `1000000000\r\nRateLimit-Remaining: ${1e9 - n}\r\nRateLimit-Reset: 60\r\nX-Quota-Limit: 1000000000000\r\nX-Quota-Remaining: ${1e12 - n}\r\nX-Quota-Reset: 2026-12-01T00:00:00Z`);
        if (coding) res.writeHeader('Content-Encoding', `${coding}\r\nVary: Accept-Encoding`);
        res.end(body);
      });
    })
    .listen('127.0.0.1', onPort, (socket) => {
      if (!socket) process.exit(1);
      done(uWS.us_socket_local_port(socket));
    });
}

if (!isMainThread) {
  listen(port, (p) => parentPort.postMessage(p));
} else if ((threads || 1) === 1) {
  listen(port, (p) => process.stdout.write(`{"event":"listening","port":${p}}\n`));
} else {
  // Several listen sockets share a port only when it is given: each thread takes the same fixed one.
  const { createServer } = await import('node:net');
  const fixed = port || (await new Promise((resolve) => { const probe = createServer().listen(0, '127.0.0.1', () => { const p = probe.address().port; probe.close(() => resolve(p)); }); }));
  await Promise.all(Array.from({ length: threads }, () => new Promise((resolve) => new Worker(new URL(import.meta.url), { workerData: { port: fixed, bodyBytes, bodyFile, coding } }).once('message', resolve))));
  process.stdout.write(`{"event":"listening","port":${fixed}}\n`);
}
