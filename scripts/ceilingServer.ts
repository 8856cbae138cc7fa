// This machine's ceiling for the stack: a minimal uWebSockets.js server answering a constant body of a given size
// with the same headers as the API (content type, CORS, request id, the rate-limit and quota block).
// Usage: node --import tsx scripts/ceilingServer.ts <port> <body bytes>
import { uWS } from '../server/uws.js';

const port = Number(process.argv[2]);
const body = JSON.stringify({ padding: 'x'.repeat(Math.max(0, Number(process.argv[3]) - 14)) });
const expose = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Quota-Limit, X-Quota-Remaining, X-Quota-Reset, Retry-After, X-Request-Id';
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
      res.end(body);
    });
  })
  .listen('127.0.0.1', port, (socket) => {
    if (!socket) process.exit(1);
    process.stdout.write(`{"event":"listening","port":${uWS.us_socket_local_port(socket)}}\n`);
  });
